import { useState } from "react";
import { useHydrated } from "~/components/shared";

/**
 * A number input with up and down buttons (the buttons need script; the
 * input works alone). Minimum 1; the server turns anything non-numeric into 1.
 */
export function QuantityField({
  id,
  name,
  max,
  defaultValue = 1,
  label = "Quantity",
}: {
  id: string;
  name: string;
  max?: number;
  defaultValue?: number;
  label?: string;
}) {
  const hydrated = useHydrated();
  const [value, setValue] = useState(String(defaultValue));
  const current = Number.parseInt(value, 10);
  const safe = Number.isFinite(current) && current >= 1 ? current : 1;
  const step = (delta: number) => setValue(String(Math.min(max ?? Number.POSITIVE_INFINITY, Math.max(1, safe + delta))));
  return (
    <div className="quantity-field">
      <label htmlFor={id}>{label}</label>
      <div className="quantity-field__control">
        {hydrated ? (
          <button
            type="button"
            className="quantity-field__step"
            aria-label="Decrease quantity"
            onClick={() => step(-1)}
            disabled={safe <= 1}
          >
            −
          </button>
        ) : null}
        <input
          id={id}
          name={name}
          type="number"
          inputMode="numeric"
          min={1}
          max={max}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          onBlur={() => setValue(String(Math.min(max ?? Number.POSITIVE_INFINITY, safe)))}
        />
        {hydrated ? (
          <button
            type="button"
            className="quantity-field__step"
            aria-label="Increase quantity"
            onClick={() => step(1)}
            disabled={max !== undefined && safe >= max}
          >
            +
          </button>
        ) : null}
      </div>
    </div>
  );
}
