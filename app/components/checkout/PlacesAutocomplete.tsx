import { APIProvider, useMapsLibrary } from "@vis.gl/react-google-maps";
import { useEffect, useRef } from "react";
import { placeToAddress } from "~/checkout/place-address";

/**
 * Google Places autocomplete (through @vis.gl/react-google-maps), loaded only
 * on checkout pages and only when a maps key is configured. The chosen place
 * is copied into the plain address fields: street, city, state, ZIP — each
 * the component's long name (the state's short name, as the form takes
 * two-letter codes), or empty (mapping in `~/checkout/place-address`).
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
      // Enter without choosing a suggestion gives a place with only a name: keep what was typed.
      if (!place.address_components?.length) return;
      const address = placeToAddress(place);
      setField("address", address.address);
      setField("city", address.city);
      setField("state", address.stateCode);
      setField("postalCode", address.postalCode);
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
  // Every field is overwritten, so nothing from an earlier choice is left behind.
  if (field) field.value = value;
}
