import { describe, expect, it } from "vitest";
import { easyPostError, easyPostShipment, startFakeEasyPost } from "../../../tests/fakes/easypost";
import { startFakeForFile } from "../../../tests/support/fake-servers";
import { createEasyPostRates } from "./easypost-rates.server";
import { seasoningParcel } from "./parcel";
import { ShippingRateError, type QuoteRequest } from "./types";

const request: QuoteRequest = {
  from: { name: "Outdoor Kitchen Outlet", street1: "100 Warehouse Rd", city: "Dallas", state: "TX", zip: "75201", country: "US" },
  to: { name: "Dana Buyer", street1: "1 Main St", street2: "Apt 2", city: "Boston", state: "MA", zip: "02108", country: "US" },
  parcel: seasoningParcel(2),
};

const fake = await startFakeForFile(startFakeEasyPost);

describe("createEasyPostRates", () => {
  const rates = () => createEasyPostRates({ apiKey: "EZTK_test_key", baseUrl: fake.url });

  it("is the real driver", () => {
    expect(rates()).toMatchObject({ name: "easypost", isStandIn: false });
  });

  it("creates a shipment with Basic auth and the addresses and parcel", async () => {
    await rates().quote(request);

    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests;
    expect(sent).toMatchObject({ method: "POST", path: "/v2/shipments" });
    expect(sent?.headers.authorization).toBe(`Basic ${Buffer.from("EZTK_test_key:").toString("base64")}`);
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(sent?.body).toEqual({
      shipment: {
        from_address: {
          name: "Outdoor Kitchen Outlet",
          street1: "100 Warehouse Rd",
          city: "Dallas",
          state: "TX",
          zip: "75201",
          country: "US",
        },
        to_address: {
          name: "Dana Buyer",
          street1: "1 Main St",
          street2: "Apt 2",
          city: "Boston",
          state: "MA",
          zip: "02108",
          country: "US",
        },
        parcel: { length: 5.75, width: 2.75, height: 11.5, weight: 23 },
      },
    });
  });

  it("quotes the USPS Priority retail rate in cents even when it is not the first rate", async () => {
    expect(await rates().quote(request)).toEqual({ amountCents: 1085, carrier: "USPS", service: "Priority" });
  });

  it("falls back to the first rate, and to `rate` when there is no retail rate", async () => {
    fake.respondWith((sent) => ({
      status: 201,
      body: easyPostShipment((sent.body as { shipment: Record<string, unknown> }).shipment, [
        { carrier: "UPS", service: "Ground", rate: "12.5", retail_rate: null },
        { carrier: "FedEx", service: "FEDEX_GROUND", rate: "14.10", retail_rate: "15.00" },
      ]),
    }));
    expect(await rates().quote(request)).toEqual({ amountCents: 1250, carrier: "UPS", service: "Ground" });
  });

  it("turns an error status into a ShippingRateError carrying EasyPost's message and code", async () => {
    fake.respondWith(() => easyPostError(422, "ADDRESS.VERIFY.FAILURE", "Unable to verify address."));

    const failure = await rates()
      .quote(request)
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ShippingRateError);
    expect(failure).toMatchObject({
      message: "EasyPost answered 422: Unable to verify address.",
      statusCode: 422,
      providerCode: "ADDRESS.VERIFY.FAILURE",
      provider: "easypost",
    });
  });

  it("reports a wrong key and a server error with a non-JSON body", async () => {
    fake.respondWith(() => easyPostError(401, "APIKEY.INACTIVE", "This api key is no longer active."));
    await expect(rates().quote(request)).rejects.toMatchObject({ statusCode: 401, providerCode: "APIKEY.INACTIVE" });

    fake.respondWith(502, "<html>Bad Gateway</html>");
    await expect(rates().quote(request)).rejects.toThrow("EasyPost answered 502: no error details");
  });

  it("rejects a shipment without rates, passing on the carrier's message", async () => {
    fake.respondWith(201, {
      id: "shp_1",
      object: "Shipment",
      rates: [],
      messages: [{ carrier: "USPS", type: "rate_error", message: "Invalid ZIP" }],
    });
    await expect(rates().quote(request)).rejects.toThrow("EasyPost returned no rates: Invalid ZIP");
  });

  it("rejects malformed answers", async () => {
    fake.respondWith(201, "not json at all");
    await expect(rates().quote(request)).rejects.toThrow("EasyPost answered with an unexpected body.");

    fake.respondWith(201, { id: "shp_1", object: "Shipment" });
    await expect(rates().quote(request)).rejects.toThrow("EasyPost answered with an unexpected body.");

    fake.respondWith(201, { rates: [{ carrier: "USPS", service: "Priority", rate: "free", retail_rate: "n/a" }] });
    await expect(rates().quote(request)).rejects.toThrow("has no usable amount");

    fake.respondWith(201, { rates: [{ carrier: "USPS", service: "Priority", rate: "-3.00", retail_rate: null }] });
    await expect(rates().quote(request)).rejects.toBeInstanceOf(ShippingRateError);
  });

  it("refuses a ZIP that is not a US ZIP without calling EasyPost", async () => {
    for (const zip of ["1234", "ABCDE", "123456", "M5V 3L9", ""]) {
      await expect(rates().quote({ ...request, to: { ...request.to, zip } })).rejects.toThrow(/to\.zip/);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("reports a 500 with EasyPost's error body", async () => {
    fake.respondWith(() => easyPostError(500, "INTERNAL_SERVER_ERROR", "Something went wrong on our end."));
    await expect(rates().quote(request)).rejects.toMatchObject({
      message: "EasyPost answered 500: Something went wrong on our end.",
      statusCode: 500,
      providerCode: "INTERNAL_SERVER_ERROR",
    });
  });

  it("gives up after its time-out with a ShippingRateError", async () => {
    fake.respondWith(async (sent) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return { status: 201, body: easyPostShipment((sent.body as { shipment: Record<string, unknown> }).shipment) };
    });
    const impatient = createEasyPostRates({ apiKey: "k", baseUrl: fake.url, timeoutMs: 200 });
    const started = Date.now();
    await expect(impatient.quote(request)).rejects.toThrow(/EasyPost could not be reached/);
    expect(Date.now() - started).toBeLessThan(1_200);
  });

  it("reports an unreachable server as a ShippingRateError", async () => {
    const gone = await startFakeEasyPost();
    await gone.close();
    const unreachable = createEasyPostRates({ apiKey: "k", baseUrl: gone.url });
    await expect(unreachable.quote(request)).rejects.toThrow(/EasyPost could not be reached/);
  });
});
