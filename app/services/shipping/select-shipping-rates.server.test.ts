import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeEasyPost, type FakeServer } from "../../../tests/fakes/easypost";
import { OFFLINE_RATES_NAME } from "./offline-rates.server";
import { seasoningParcel } from "./parcel";
import { selectShippingRates } from "./select-shipping-rates.server";

describe("selectShippingRates", () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakeEasyPost();
  });
  afterAll(() => fake.close());

  it("picks the offline estimate when no EasyPost key is set", () => {
    expect(selectShippingRates({})).toMatchObject({ name: OFFLINE_RATES_NAME, isStandIn: true });
    expect(selectShippingRates({ easypostApiKey: "" }).isStandIn).toBe(true);
  });

  it("picks EasyPost when the key is set, at the configured address", async () => {
    const rates = selectShippingRates({ easypostApiKey: "EZTK_configured", easypostBaseUrl: fake.url });
    expect(rates).toMatchObject({ name: "easypost", isStandIn: false });

    const address = { name: "N", street1: "1 Main St", city: "Dallas", state: "TX", zip: "75201", country: "US" };
    await rates.quote({ from: address, to: address, parcel: seasoningParcel(1) });
    expect(fake.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from("EZTK_configured:").toString("base64")}`);
  });
});
