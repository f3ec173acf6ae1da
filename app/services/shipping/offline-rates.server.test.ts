import { describe, expect, it } from "vitest";
import { createOfflineRates, OFFLINE_RATES_NAME } from "./offline-rates.server";
import { seasoningParcel } from "./parcel";
import { ShippingRateError, type QuoteRequest } from "./types";

const address = (zip: string) => ({ name: "N", street1: "1 Main St", city: "C", state: "TX", zip, country: "US" });
const quoteFor = (fromZip: string, toZip: string, weight: number) =>
  createOfflineRates().quote({
    from: address(fromZip),
    to: address(toZip),
    parcel: { length: 10, width: 10, height: 10, weight },
  } satisfies QuoteRequest);

describe("createOfflineRates", () => {
  it("says plainly that it is an offline estimate", () => {
    const rates = createOfflineRates();
    expect(rates.isStandIn).toBe(true);
    expect(rates.name).toBe(OFFLINE_RATES_NAME);
    expect(rates.name).toMatch(/offline estimate/);
  });

  it("starts at $9.45 for a pound within one ZIP area, as USPS Priority", async () => {
    expect(await quoteFor("75201", "77002", 16)).toEqual({ amountCents: 945, carrier: "USPS", service: "Priority" });
  });

  it("adds per extra pound, rounding the weight up", async () => {
    expect((await quoteFor("75201", "75201", 17)).amountCents).toBe(945 + 160);
    expect((await quoteFor("75201", "75201", 48)).amountCents).toBe(945 + 2 * 160);
  });

  it("adds per zone of distance between ZIP areas, capped at zone 8", async () => {
    expect((await quoteFor("75201", "90210", 16)).amountCents).toBe(945 + 2 * 85);
    expect((await quoteFor("90210", "75201", 16)).amountCents).toBe(945 + 2 * 85);
    expect((await quoteFor("02108", "98101", 16)).amountCents).toBe(945 + 7 * 85);
  });

  it("is deterministic and always whole cents", async () => {
    const parcel = seasoningParcel(3);
    const request = { from: address("75201"), to: address("10001"), parcel };
    const first = await createOfflineRates().quote(request);
    expect(await createOfflineRates().quote(request)).toEqual(first);
    expect(Number.isInteger(first.amountCents)).toBe(true);
  });

  it("refuses a ZIP that is not a US ZIP and a parcel without weight", async () => {
    await expect(quoteFor("7520", "75201", 16)).rejects.toBeInstanceOf(ShippingRateError);
    await expect(quoteFor("75201", "SW1A 1AA", 16)).rejects.toThrow(/to\.zip must be a 5-digit US ZIP/);
    await expect(quoteFor("75201", "75201", 0)).rejects.toThrow(/parcel\.weight/);
  });

  it("accepts ZIP+4", async () => {
    expect((await quoteFor("75201-1234", "75201", 16)).amountCents).toBe(945);
  });
});
