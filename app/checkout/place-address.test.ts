import { describe, expect, it } from "vitest";
import { placeToAddress, type PlaceAddressComponent, type SelectedPlace } from "./place-address";

// Places results in the shape the Places library returns for fields ["address_components", "formatted_address"].
const component = (long_name: string, short_name: string, ...types: string[]): PlaceAddressComponent => ({ long_name, short_name, types });

const whiteHouse: SelectedPlace = {
  formatted_address: "1600 Pennsylvania Avenue NW, Washington, DC 20500, USA",
  address_components: [
    component("1600", "1600", "street_number"),
    component("Pennsylvania Avenue Northwest", "Pennsylvania Avenue NW", "route"),
    component("Northwest Washington", "Northwest Washington", "neighborhood", "political"),
    component("Washington", "Washington", "locality", "political"),
    component("District of Columbia", "DC", "administrative_area_level_1", "political"),
    component("United States", "US", "country", "political"),
    component("20500", "20500", "postal_code"),
  ],
};

const apartment: SelectedPlace = {
  formatted_address: "2200 Commerce St Apt 4B, Dallas, TX 75201, USA",
  address_components: [
    component("4B", "4B", "subpremise"),
    component("2200", "2200", "street_number"),
    component("Commerce Street", "Commerce St", "route"),
    component("Downtown", "Downtown", "neighborhood", "political"),
    component("Dallas", "Dallas", "locality", "political"),
    component("Dallas County", "Dallas County", "administrative_area_level_2", "political"),
    component("Texas", "TX", "administrative_area_level_1", "political"),
    component("United States", "US", "country", "political"),
    component("75201", "75201", "postal_code"),
    component("4512", "4512", "postal_code_suffix"),
  ],
};

// New York's boroughs have no locality: the borough comes as sublocality_level_1.
const brooklyn: SelectedPlace = {
  formatted_address: "345 Flatbush Ave, Brooklyn, NY 11238, USA",
  address_components: [
    component("345", "345", "street_number"),
    component("Flatbush Avenue", "Flatbush Ave", "route"),
    component("Prospect Heights", "Prospect Heights", "neighborhood", "political"),
    component("Brooklyn", "Brooklyn", "political", "sublocality", "sublocality_level_1"),
    component("Kings County", "Kings County", "administrative_area_level_2", "political"),
    component("New York", "NY", "administrative_area_level_1", "political"),
    component("United States", "US", "country", "political"),
    component("11238", "11238", "postal_code"),
  ],
};

const postOfficeBox: SelectedPlace = {
  formatted_address: "PO Box 1234, Austin, TX 78767, USA",
  address_components: [
    component("PO Box 1234", "PO Box 1234", "post_box"),
    component("Austin", "Austin", "locality", "political"),
    component("Travis County", "Travis County", "administrative_area_level_2", "political"),
    component("Texas", "TX", "administrative_area_level_1", "political"),
    component("United States", "US", "country", "political"),
    component("78767", "78767", "postal_code"),
  ],
};

const ruralRoute: SelectedPlace = {
  formatted_address: "RR 2 Box 152, Hillsboro, WV 24946, USA",
  address_components: [
    component("Box 152", "Box 152", "street_number"),
    component("Rural Route 2", "RR 2", "route"),
    component("Hillsboro", "Hillsboro", "locality", "political"),
    component("Pocahontas County", "Pocahontas County", "administrative_area_level_2", "political"),
    component("West Virginia", "WV", "administrative_area_level_1", "political"),
    component("United States", "US", "country", "political"),
    component("24946", "24946", "postal_code"),
  ],
};

// An unincorporated place: no locality, no sublocality, no postal town.
const noTown: SelectedPlace = {
  formatted_address: "12 County Rd 401, TX 76426, USA",
  address_components: [
    component("12", "12", "street_number"),
    component("County Road 401", "Co Rd 401", "route"),
    component("Wise County", "Wise County", "administrative_area_level_2", "political"),
    component("Texas", "TX", "administrative_area_level_1", "political"),
    component("United States", "US", "country", "political"),
    component("76426", "76426", "postal_code"),
  ],
};

describe("placeToAddress", () => {
  it("maps a plain street address to long names", () => {
    expect(placeToAddress(whiteHouse)).toEqual({
      address: "1600 Pennsylvania Avenue Northwest",
      city: "Washington",
      state: "District of Columbia",
      stateCode: "DC",
      postalCode: "20500",
      country: "United States",
    });
  });

  it("adds a unit number (subpremise) after the street", () => {
    expect(placeToAddress(apartment)).toEqual({
      address: "2200 Commerce Street #4B",
      city: "Dallas",
      state: "Texas",
      stateCode: "TX",
      postalCode: "75201",
      country: "United States",
    });
  });

  it("takes the borough as the city when there is no locality", () => {
    expect(placeToAddress(brooklyn)).toMatchObject({
      address: "345 Flatbush Avenue",
      city: "Brooklyn",
      state: "New York",
      stateCode: "NY",
    });
  });

  it("takes a postal town when there is neither locality nor sublocality", () => {
    const place: SelectedPlace = {
      ...noTown,
      address_components: [...(noTown.address_components ?? []), component("Decatur", "Decatur", "postal_town")],
    };
    expect(placeToAddress(place).city).toBe("Decatur");
  });

  it("leaves the city empty when the place names no town at all", () => {
    expect(placeToAddress(noTown)).toEqual({
      address: "12 County Road 401",
      city: "",
      state: "Texas",
      stateCode: "TX",
      postalCode: "76426",
      country: "United States",
    });
  });

  it("uses the first part of formatted_address for a PO box, which has no route", () => {
    expect(placeToAddress(postOfficeBox)).toEqual({
      address: "PO Box 1234",
      city: "Austin",
      state: "Texas",
      stateCode: "TX",
      postalCode: "78767",
      country: "United States",
    });
  });

  it("keeps a rural route and box as the street", () => {
    expect(placeToAddress(ruralRoute)).toMatchObject({ address: "Box 152 Rural Route 2", city: "Hillsboro", state: "West Virginia" });
  });

  it("answers empty strings for a place without components or formatted address", () => {
    const empty = { address: "", city: "", state: "", stateCode: "", postalCode: "", country: "" };
    expect(placeToAddress({})).toEqual(empty);
    expect(placeToAddress({ address_components: [], formatted_address: "" })).toEqual(empty);
  });

  it("uses formatted_address alone when the components are missing", () => {
    expect(placeToAddress({ formatted_address: "Empire State Building, 20 W 34th St, New York, NY 10001, USA" }).address).toBe(
      "Empire State Building",
    );
  });

  it("does not double the # of a unit that already carries one", () => {
    const place: SelectedPlace = {
      ...apartment,
      address_components: (apartment.address_components ?? []).map((part) =>
        part.types.includes("subpremise") ? component("#12", "#12", "subpremise") : part,
      ),
    };
    expect(placeToAddress(place).address).toBe("2200 Commerce Street #12");
  });
});
