import { lazy, Suspense, type InputHTMLAttributes } from "react";
import { US_STATES, type CustomerErrors } from "~/checkout/customer-fields";
import type { CustomerField } from "~/orders/customer";
import { useHydrated, useStore } from "~/components/shared";

const PlacesAutocomplete = lazy(() => import("./PlacesAutocomplete"));

type Values = Partial<Record<CustomerField, string>>;

/**
 * Contact and address fields of every checkout. Plain fields work everywhere;
 * with a maps key and script, Places autocomplete fills the address fields.
 */
export function CustomerFields({ values, errors }: { values: Values; errors: CustomerErrors }) {
  const { googleMapsApiKey } = useStore();
  const hydrated = useHydrated();
  return (
    <fieldset className="customer-fields">
      <legend>Contact and shipping address</legend>
      <div className="field-row">
        <TextField name="firstName" label="First name" values={values} errors={errors} autoComplete="given-name" />
        <TextField name="lastName" label="Last name" values={values} errors={errors} autoComplete="family-name" />
      </div>
      <div className="field-row">
        <TextField name="email" label="Email" values={values} errors={errors} type="email" autoComplete="email" />
        <TextField
          name="phone"
          label="Phone (10-15 digits)"
          values={values}
          errors={errors}
          type="tel"
          autoComplete="tel"
          inputMode="numeric"
        />
      </div>
      {googleMapsApiKey && hydrated ? (
        <Suspense fallback={<p className="field-hint">Loading...</p>}>
          <PlacesAutocomplete apiKey={googleMapsApiKey} />
        </Suspense>
      ) : null}
      <TextField
        name="address"
        label="Street address"
        values={values}
        errors={errors}
        autoComplete="address-line1"
        placeholder="Your Address"
      />
      <div className="field-row field-row--three">
        <TextField name="city" label="City" values={values} errors={errors} autoComplete="address-level2" />
        <div className="field">
          <label htmlFor="customer-state">State</label>
          <select
            id="customer-state"
            name="state"
            defaultValue={values.state ?? ""}
            autoComplete="address-level1"
            aria-invalid={errors.state ? true : undefined}
            aria-describedby={errors.state ? "customer-state-error" : undefined}
          >
            <option value="">Choose…</option>
            {US_STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
          <FieldError name="state" errors={errors} />
        </div>
        <TextField name="postalCode" label="ZIP code" values={values} errors={errors} autoComplete="postal-code" inputMode="numeric" />
      </div>
      <p className="field-static">
        Country: <strong>USA</strong>
      </p>
    </fieldset>
  );
}

function TextField({
  name,
  label,
  values,
  errors,
  ...props
}: { name: CustomerField; label: string; values: Values; errors: CustomerErrors } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="field">
      <label htmlFor={`customer-${name}`}>{label}</label>
      <input
        id={`customer-${name}`}
        name={name}
        defaultValue={values[name] ?? ""}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `customer-${name}-error` : undefined}
        {...props}
      />
      <FieldError name={name} errors={errors} />
    </div>
  );
}

function FieldError({ name, errors }: { name: CustomerField; errors: CustomerErrors }) {
  return errors[name] ? (
    <p id={`customer-${name}-error`} className="field-error">
      {errors[name]}
    </p>
  ) : null;
}
