import { randomUUID } from "node:crypto";
import { basicAuthCredentials, isRecord, startFakeHttpServer, type FakeResponse, type RecordedRequest } from "./fake-http-server";

export type { FakeServer, RecordedRequest } from "./fake-http-server";

/**
 * A local stand-in for EasyPost's Shipments API (https://docs.easypost.com/docs/shipments):
 * POST /v2/shipments with HTTP Basic auth (API key as user name), answering a Shipment
 * with rates. The Priority rate is deliberately not the first one.
 */
export function startFakeEasyPost() {
  return startFakeHttpServer(answerLikeEasyPost);
}

export interface FakeRate {
  carrier: string;
  service: string;
  rate: string;
  retail_rate: string | null;
}

export const DEFAULT_FAKE_RATES: FakeRate[] = [
  { carrier: "USPS", service: "GroundAdvantage", rate: "6.20", retail_rate: "8.30" },
  { carrier: "USPS", service: "Priority", rate: "9.01", retail_rate: "10.85" },
  { carrier: "USPS", service: "Express", rate: "31.40", retail_rate: "38.60" },
];

/** A Shipment body as EasyPost returns it from POST /v2/shipments. */
export function easyPostShipment(shipment: Record<string, unknown>, rates: FakeRate[] = DEFAULT_FAKE_RATES) {
  const shipmentId = `shp_${randomUUID().replaceAll("-", "")}`;
  return {
    id: shipmentId,
    object: "Shipment",
    mode: "test",
    to_address: { id: "adr_to", object: "Address", ...asRecord(shipment.to_address) },
    from_address: { id: "adr_from", object: "Address", ...asRecord(shipment.from_address) },
    parcel: { id: "prcl_fake", object: "Parcel", ...asRecord(shipment.parcel) },
    rates: rates.map((rate, index) => ({
      id: `rate_${index}`,
      object: "Rate",
      mode: "test",
      shipment_id: shipmentId,
      currency: "USD",
      list_rate: rate.retail_rate,
      list_currency: "USD",
      retail_currency: "USD",
      delivery_days: 2 + index,
      ...rate,
    })),
    messages: [],
  };
}

/** EasyPost's error envelope. */
export function easyPostError(status: number, code: string, message: string): FakeResponse {
  return { status, body: { error: { code, message, errors: [] } } };
}

function answerLikeEasyPost(request: RecordedRequest): FakeResponse {
  if (request.method !== "POST" || request.path !== "/v2/shipments") {
    return easyPostError(404, "NOT_FOUND", "The requested resource could not be found.");
  }
  if (!basicAuthCredentials(request.headers)?.username) {
    return easyPostError(401, "APIKEY.REQUIRED", "No API key was provided. Please provide your API key.");
  }
  const shipment = isRecord(request.body) ? request.body.shipment : undefined;
  if (!isRecord(shipment) || !isRecord(shipment.parcel)) {
    return easyPostError(422, "PARCEL.REQUIRED", "A parcel is required to create a shipment.");
  }
  return { status: 201, body: easyPostShipment(shipment) };
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}
