import { APIProvider, useMapsLibrary } from "@vis.gl/react-google-maps";
import { useEffect, useRef } from "react";

/**
 * Google Places autocomplete (through @vis.gl/react-google-maps), loaded only
 * on checkout pages and only when a maps key is configured. The chosen place
 * is copied into the plain address fields: street, city, state, ZIP — each
 * the component's long name (the state's short name, as the form takes
 * two-letter codes), or empty.
 */
export default function PlacesAutocomplete({ apiKey }: { apiKey: string }) {
  return (
    <APIProvider apiKey={apiKey} libraries={["places"]}>
      <PlacesInput />
    </APIProvider>
  );
}

function PlacesInput() {
  const places = useMapsLibrary("places");
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!places || !input.current) return;
    const autocomplete = new places.Autocomplete(input.current, {
      componentRestrictions: { country: "us" },
      fields: ["address_components", "formatted_address"],
      types: ["address"],
    });
    const listener = autocomplete.addListener("place_changed", () => {
      const place = autocomplete.getPlace();
      const part = (type: string, short = false) => {
        const component = place.address_components?.find((c: { types: string[] }) => c.types.includes(type));
        return (short ? component?.short_name : component?.long_name) ?? "";
      };
      setField("address", [part("street_number"), part("route")].filter(Boolean).join(" ") || place.formatted_address || "");
      setField("city", part("locality"));
      setField("state", part("administrative_area_level_1", true));
      setField("postalCode", part("postal_code"));
    });
    return () => listener.remove();
  }, [places]);

  return (
    <div className="field">
      <label htmlFor="address-search">Find your address</label>
      <input id="address-search" ref={input} placeholder="Your Address" disabled={!places} autoComplete="off" />
      {places ? null : <p className="field-hint">Loading...</p>}
    </div>
  );
}

function setField(name: string, value: string) {
  const field = document.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
  if (field && value) field.value = value;
}
