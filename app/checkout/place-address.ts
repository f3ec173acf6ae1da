/**
 * Turns a Google Places result into the checkout's address fields (spec: "Address
 * selection result: formatted_address, city (locality), state (first-level administrative
 * area), postalCode, country; each is the long name of the component or an empty string").
 * Plain module without imports, so the lazily loaded maps component stays small.
 */

export interface PlaceAddressComponent {
  long_name: string;
  short_name: string;
  types: string[];
}

export interface SelectedPlace {
  address_components?: PlaceAddressComponent[] | undefined;
  formatted_address?: string | undefined;
}

export interface PlaceAddress {
  /** Street number and route (with `#unit`), or the first part of formatted_address when there is no route. */
  address: string;
  city: string;
  /** The state's long name, e.g. "Texas". */
  state: string;
  /** The state's two-letter code, e.g. "TX", which the checkout form's state list takes. */
  stateCode: string;
  postalCode: string;
  country: string;
}

/**
 * Where Google has no `locality` (New York's boroughs, some rural addresses) the
 * town the post office uses comes in one of these instead.
 */
const CITY_TYPES = ["locality", "postal_town", "sublocality_level_1", "sublocality"] as const;

export function placeToAddress(place: SelectedPlace): PlaceAddress {
  const components = place.address_components ?? [];
  const find = (type: string) => components.find((component) => component.types.includes(type));
  const longName = (type: string) => find(type)?.long_name.trim() ?? "";

  const cityType = CITY_TYPES.find((type) => longName(type) !== "");
  return {
    address: streetAddress(longName("street_number"), longName("route"), longName("subpremise"), place.formatted_address ?? ""),
    city: cityType ? longName(cityType) : "",
    state: longName("administrative_area_level_1"),
    stateCode: find("administrative_area_level_1")?.short_name.trim() ?? "",
    postalCode: longName("postal_code"),
    country: longName("country"),
  };
}

function streetAddress(streetNumber: string, route: string, subpremise: string, formattedAddress: string): string {
  if (!route) return formattedAddress.split(",")[0]?.trim() ?? "";
  const street = [streetNumber, route].filter(Boolean).join(" ");
  return subpremise ? `${street} #${subpremise.replace(/^#/, "")}` : street;
}
