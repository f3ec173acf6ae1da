import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { ShippingRateError } from "./types";

const PROVIDER = "easypost";
const DEFAULT_TIMEOUT_MS = 10_000;

/** What the store learns of a parcel from the carrier. */
export interface TrackerState {
  id: string;
  status: string;
  /** When the carrier scanned it delivered; null until then. */
  deliveredAt: Date | null;
}

/**
 * Follows a parcel with its carrier. The real driver asks EasyPost to create a Tracker, whose updates
 * arrive at the store's webhook; the offline stand-in follows nothing and says so (staff record delivery).
 */
export interface ShipmentTracker {
  readonly name: string;
  /** True for the offline stand-in: no carrier is asked, delivery dates come from staff. */
  readonly isStandIn: boolean;
  /** Starts following the parcel; null when nothing follows it (the stand-in). */
  track(input: { trackingCode: string; carrier: string | null }): Promise<TrackerState | null>;
}

const trackingDetail = z.object({ status: z.string().nullish(), datetime: z.string().nullish() });
const trackerAnswer = z.object({
  id: z.string().min(1),
  object: z.literal("Tracker"),
  status: z.string(),
  tracking_details: z.array(trackingDetail).nullish(),
  updated_at: z.string().nullish(),
});
const eventAnswer = z.object({
  object: z.literal("Event"),
  description: z.string(),
  result: z.unknown(),
});
const errorAnswer = z.object({ error: z.object({ code: z.string().optional(), message: z.string() }) });

/** The tracker's delivery moment: its "delivered" scan, else when EasyPost last updated a delivered tracker. */
function stateOf(tracker: z.infer<typeof trackerAnswer>): TrackerState {
  if (tracker.status !== "delivered") return { id: tracker.id, status: tracker.status, deliveredAt: null };
  const scan = [...(tracker.tracking_details ?? [])].reverse().find((detail) => detail.status === "delivered" && detail.datetime);
  const when = new Date(scan?.datetime ?? tracker.updated_at ?? "");
  return { id: tracker.id, status: tracker.status, deliveredAt: Number.isNaN(when.getTime()) ? new Date() : when };
}

export function createEasyPostTracker({
  apiKey,
  baseUrl = "https://api.easypost.com",
  timeoutMs = DEFAULT_TIMEOUT_MS,
}: {
  apiKey: string;
  baseUrl?: string;
  timeoutMs?: number;
}): ShipmentTracker {
  const endpoint = `${baseUrl.replace(/\/+$/, "")}/v2/trackers`;
  const authorization = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
  return {
    name: "easypost",
    isStandIn: false,
    async track({ trackingCode, carrier }) {
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: "POST",
          headers: { authorization, "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ tracker: { tracking_code: trackingCode, ...(carrier ? { carrier } : {}) } }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new ShippingRateError(`EasyPost could not be reached: ${String(error)}`, { provider: PROVIDER, cause: error });
      }
      const json = parseJson(await response.text());
      if (!response.ok) {
        const parsed = errorAnswer.safeParse(json);
        throw new ShippingRateError(
          `EasyPost answered ${response.status}: ${parsed.success ? parsed.data.error.message : "no error details"}`,
          {
            provider: PROVIDER,
            statusCode: response.status,
            ...(parsed.success && parsed.data.error.code ? { providerCode: parsed.data.error.code } : {}),
          },
        );
      }
      const tracker = trackerAnswer.safeParse(json);
      if (!tracker.success) {
        throw new ShippingRateError("EasyPost answered with an unexpected body.", { provider: PROVIDER, statusCode: response.status });
      }
      return stateOf(tracker.data);
    },
  };
}

export function createOfflineTracker(): ShipmentTracker {
  return { name: "offline (no carrier tracking: staff record delivery dates)", isStandIn: true, track: async () => null };
}

/** EasyPost when EASYPOST_API_KEY is set, otherwise the stand-in. */
export function selectShipmentTracker(config: {
  EASYPOST_API_KEY?: string | undefined;
  EASYPOST_API_BASE?: string | undefined;
}): ShipmentTracker {
  const apiKey = config.EASYPOST_API_KEY?.trim();
  if (!apiKey) return createOfflineTracker();
  return createEasyPostTracker({ apiKey, ...(config.EASYPOST_API_BASE ? { baseUrl: config.EASYPOST_API_BASE } : {}) });
}

/**
 * EasyPost's webhook signature: `X-Hmac-Signature: hmac-sha256-hex={hex}`, the HMAC-SHA256 of the raw
 * body keyed with the webhook secret (NFKD-normalized, as EasyPost's client libraries do).
 */
export function easyPostSignature(secret: string, rawBody: string): string {
  return `hmac-sha256-hex=${createHmac("sha256", secret.normalize("NFKD")).update(rawBody, "utf8").digest("hex")}`;
}

export function verifyEasyPostSignature(secret: string | undefined, rawBody: string, header: string | null): boolean {
  if (!secret || !header) return false;
  const expected = Buffer.from(easyPostSignature(secret, rawBody));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A signed Event: `tracker.updated` (or `.created`) carries a Tracker; any other event is acknowledged and ignored. */
export type TrackerEvent = { kind: "tracker"; tracker: TrackerState } | { kind: "ignored" } | { kind: "malformed" };

export function parseTrackerEvent(rawBody: string): TrackerEvent {
  const event = eventAnswer.safeParse(parseJson(rawBody));
  if (!event.success) return { kind: "malformed" };
  if (!event.data.description.startsWith("tracker.")) return { kind: "ignored" };
  const tracker = trackerAnswer.safeParse(event.data.result);
  return tracker.success ? { kind: "tracker", tracker: stateOf(tracker.data) } : { kind: "malformed" };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
