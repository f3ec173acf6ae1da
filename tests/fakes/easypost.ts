import { createHash, randomUUID } from "node:crypto";
import { basicAuthCredentials, isRecord, startFakeHttpServer, type FakeResponse, type RecordedRequest } from "./fake-http-server";

export type { FakeServer, RecordedRequest } from "./fake-http-server";

/**
 * A local stand-in for EasyPost's Shipments API (https://docs.easypost.com/docs/shipments):
 * POST /v2/shipments with HTTP Basic auth (API key as user name), answering a Shipment
 * with rates. The Priority rate is deliberately not the first one. POST /v2/trackers
 * (https://docs.easypost.com/docs/trackers) answers a Tracker "pre_transit" for the code.
 * POST /v2/shipments/{id}/buy buys one of a created shipment's rates and answers its postage label.
 */
export function startFakeEasyPost() {
  return startFakeHttpServer(answerLikeEasyPost);
}

export const FAKE_EASYPOST_API_KEY = "EZTKfakeeasypostkey";
export const FAKE_EASYPOST_WEBHOOK_SECRET = "fake-easypost-webhook-secret";

/** The settings that point the store's EasyPost drivers (rates, trackers, webhook) at the fake. */
export function fakeEasyPostSettings(fake: { url: string }): Record<string, string> {
  return { EASYPOST_API_KEY: FAKE_EASYPOST_API_KEY, EASYPOST_API_BASE: fake.url, EASYPOST_WEBHOOK_SECRET: FAKE_EASYPOST_WEBHOOK_SECRET };
}

/** A Tracker as EasyPost returns it; `deliveredAt` adds the delivered scan and status. */
export function easyPostTracker(trackingCode: string, carrier: string, deliveredAt?: string) {
  return {
    id: `trk_${createHash("sha256").update(`${carrier}:${trackingCode}`).digest("hex").slice(0, 32)}`,
    object: "Tracker",
    mode: "test",
    tracking_code: trackingCode,
    carrier,
    status: deliveredAt ? "delivered" : "pre_transit",
    updated_at: deliveredAt ?? new Date().toISOString(),
    tracking_details: [
      { object: "TrackingDetail", status: "pre_transit", message: "Pre-Shipment information received", datetime: "2026-11-20T10:00:00Z" },
      ...(deliveredAt ? [{ object: "TrackingDetail", status: "delivered", message: "Delivered", datetime: deliveredAt }] : []),
    ],
  };
}

/** The Event EasyPost posts to the webhook for a tracker's update. */
export function easyPostTrackerEvent(tracker: ReturnType<typeof easyPostTracker>) {
  return { id: `evt_${randomUUID().replaceAll("-", "")}`, object: "Event", mode: "test", description: "tracker.updated", result: tracker };
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

/** Shipments this fake created, by id, so one can be bought (module-wide: ids are random). */
const createdShipments = new Map<string, ReturnType<typeof easyPostShipment>>();

/** The label URL the fake answers for a bought shipment. */
export function fakeLabelUrl(shipmentId: string): string {
  return `https://easypost-files.example/files/postage_label/${shipmentId}.png`;
}

/** `POST /v2/shipments/{id}/buy` with `{ rate: { id } }` (https://docs.easypost.com/docs/shipments#buy-a-shipment): the shipment with its selected rate and postage label, bought once. */
function buyShipment(request: RecordedRequest, id: string): FakeResponse {
  if (!basicAuthCredentials(request.headers)?.username) {
    return easyPostError(401, "APIKEY.REQUIRED", "No API key was provided. Please provide your API key.");
  }
  const shipment = createdShipments.get(id);
  if (!shipment) return easyPostError(404, "NOT_FOUND", "The requested resource could not be found.");
  if ("postage_label" in shipment) return easyPostError(422, "SHIPMENT.POSTAGE.EXISTS", "Postage already exists for this shipment.");
  const rateId = isRecord(request.body) && isRecord(request.body.rate) ? request.body.rate.id : undefined;
  const rate = shipment.rates.find((candidate) => candidate.id === rateId);
  if (!rate) return easyPostError(422, "SHIPMENT.RATE.INVALID", "The rate is not one of this shipment's rates.");
  const bought = { ...shipment, selected_rate: rate, postage_label: { object: "PostageLabel", label_url: fakeLabelUrl(id) } };
  createdShipments.set(id, bought);
  return { status: 200, body: bought };
}

function answerLikeEasyPost(request: RecordedRequest): FakeResponse {
  if (request.method === "POST" && request.path === "/v2/trackers") return answerTracker(request);
  const buy = /^\/v2\/shipments\/([^/]+)\/buy$/.exec(request.path);
  if (request.method === "POST" && buy) return buyShipment(request, decodeURIComponent(buy[1]!));
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
  const created = easyPostShipment(shipment);
  createdShipments.set(created.id, created);
  return { status: 201, body: created };
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function answerTracker(request: RecordedRequest): FakeResponse {
  if (!basicAuthCredentials(request.headers)?.username) {
    return easyPostError(401, "APIKEY.REQUIRED", "No API key was provided. Please provide your API key.");
  }
  const tracker = isRecord(request.body) ? request.body.tracker : undefined;
  const code = isRecord(tracker) && typeof tracker.tracking_code === "string" ? tracker.tracking_code : "";
  if (!code) return easyPostError(422, "TRACKER.TRACKING_CODE.INVALID", "A tracking code is required.");
  const carrier = isRecord(tracker) && typeof tracker.carrier === "string" ? tracker.carrier : "USPS";
  return { status: 201, body: easyPostTracker(code, carrier) };
}
