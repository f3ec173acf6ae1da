import { describe, expect, it } from "vitest";
import { US_STATES } from "~/utils/us-states";
import { stateOfZip, ZIP_PREFIX_RANGES } from "./zip-states";

describe("stateOfZip", () => {
  it.each([
    ["00501", "NY"],
    ["02108", "MA"],
    ["02903", "RI"],
    ["03301", "NH"],
    ["04101", "ME"],
    ["05401", "VT"],
    ["05501", "MA"],
    ["06103", "CT"],
    ["07102", "NJ"],
    ["10001", "NY"],
    ["19103", "PA"],
    ["19901", "DE"],
    ["20001", "DC"],
    ["20166", "VA"],
    ["20500", "DC"],
    ["21201", "MD"],
    ["23219", "VA"],
    ["25301", "WV"],
    ["27601", "NC"],
    ["29201", "SC"],
    ["30303", "GA"],
    ["39901", "GA"],
    ["33101", "FL"],
    ["35203", "AL"],
    ["37203", "TN"],
    ["39201", "MS"],
    ["40202", "KY"],
    ["43215", "OH"],
    ["46204", "IN"],
    ["48226", "MI"],
    ["50309", "IA"],
    ["53202", "WI"],
    ["55401", "MN"],
    ["56901", "DC"],
    ["57104", "SD"],
    ["58102", "ND"],
    ["59601", "MT"],
    ["60601", "IL"],
    ["63101", "MO"],
    ["66603", "KS"],
    ["68102", "NE"],
    ["70112", "LA"],
    ["72201", "AR"],
    ["73102", "OK"],
    ["73301", "TX"],
    ["74103", "OK"],
    ["75201", "TX"],
    ["88510", "TX"],
    ["80202", "CO"],
    ["82001", "WY"],
    ["83702", "ID"],
    ["84111", "UT"],
    ["85004", "AZ"],
    ["87102", "NM"],
    ["89101", "NV"],
    ["90012", "CA"],
    ["96813", "HI"],
    ["97201", "OR"],
    ["98101", "WA"],
    ["99501", "AK"],
  ])("%s is in %s", (zip, state) => {
    expect(stateOfZip(zip)).toBe(state);
  });

  it("takes ZIP+4, with or without its hyphen, and spaces around", () => {
    expect(stateOfZip("94105-1804")).toBe("CA");
    expect(stateOfZip("941051804")).toBe("CA");
    expect(stateOfZip(" 94105 ")).toBe("CA");
  });

  it("answers null for military, territories and prefixes of no state", () => {
    for (const zip of ["00601", "00802", "00901", "09001", "34001", "96201", "96910", "00100", "71501", "99999-"]) {
      expect(stateOfZip(zip), zip).toBeNull();
    }
  });

  it("answers null for what is not a ZIP code", () => {
    for (const zip of ["", "9410", "941055", "ABCDE", "94105-18", "94105 1804"]) expect(stateOfZip(zip), zip).toBeNull();
  });

  it("has ranges in order, none overlapping, covering every state and DC", () => {
    ZIP_PREFIX_RANGES.forEach(([first, last], index) => {
      expect(first).toBeLessThanOrEqual(last);
      const previous = ZIP_PREFIX_RANGES[index - 1];
      if (previous) expect(first).toBeGreaterThan(previous[1]);
    });
    expect(new Set(ZIP_PREFIX_RANGES.map(([, , state]) => state))).toEqual(new Set(US_STATES));
  });
});
