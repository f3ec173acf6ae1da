import { z } from "zod";

/**
 * PayPal's webhook deliveries, read before anyone is asked: the signature headers PayPal sends (checked
 * by PayPal itself, through the driver's verifyWebhookSignature) and the order an event names.
 */

/** The headers PayPal signs each webhook delivery with, as verify-webhook-signature takes them. */
export interface PayPalWebhookSignature {
  transmissionId: string;
  transmissionTime: string;
  transmissionSig: string;
  certUrl: string;
  authAlgo: string;
}

/**
 * How far a delivery's PAYPAL-TRANSMISSION-TIME may lie from now. PayPal retries a delivery it could not
 * make for up to 3 days; whether a retry keeps its first time is not documented, so a day more is allowed.
 */
const TRANSMISSION_MAX_AGE_MS = 4 * 24 * 60 * 60_000;
/** Clocks differ a little; a time further ahead than this was never PayPal's. */
const TRANSMISSION_MAX_AHEAD_MS = 5 * 60_000;

/** Each header's shape, within the lengths verify-webhook-signature accepts. */
const SIGNATURE_HEADERS = {
  transmissionId: { header: "paypal-transmission-id", shape: /^[\w-]{1,50}$/ },
  transmissionTime: { header: "paypal-transmission-time", shape: /^[\dT:.+\-Z]{1,100}$/ },
  transmissionSig: { header: "paypal-transmission-sig", shape: /^[A-Za-z0-9+/=_-]{1,500}$/ },
  certUrl: { header: "paypal-cert-url", shape: /^https:\/\/\S{1,492}$/ },
  authAlgo: { header: "paypal-auth-algo", shape: /^[A-Za-z0-9]{1,100}$/ },
} as const satisfies Record<keyof PayPalWebhookSignature, { header: string; shape: RegExp }>;

/**
 * A delivery's signature headers, or null for anything PayPal never sends (a header missing or out of
 * shape, a certificate off PayPal's host, a transmission time far from now): those can never verify, so
 * PayPal is not asked about them.
 */
export function paypalWebhookSignatureOf(headers: Headers, now: Date): PayPalWebhookSignature | null {
  const signature = {} as PayPalWebhookSignature;
  for (const [field, { header, shape }] of Object.entries(SIGNATURE_HEADERS)) {
    const value = headers.get(header) ?? "";
    if (!shape.test(value)) return null;
    signature[field as keyof PayPalWebhookSignature] = value;
  }
  return isPayPalCertUrl(signature.certUrl) && isRecentTransmission(signature.transmissionTime, now) ? signature : null;
}

function isPayPalCertUrl(certUrl: string): boolean {
  const url = URL.parse(certUrl);
  if (!url || url.protocol !== "https:" || url.port || url.username) return false;
  return url.hostname === "paypal.com" || url.hostname.endsWith(".paypal.com");
}

function isRecentTransmission(transmissionTime: string, now: Date): boolean {
  const sentAt = Date.parse(transmissionTime);
  const ahead = sentAt - now.getTime();
  return Number.isFinite(sentAt) && ahead <= TRANSMISSION_MAX_AHEAD_MS && -ahead <= TRANSMISSION_MAX_AGE_MS;
}

/** Whether a webhook body has the shape of every PayPal event (an event type and its resource). */
export function isPayPalWebhookEvent(event: unknown): boolean {
  return webhookEvent.safeParse(event).success;
}

/**
 * The PayPal order a webhook event is about: the order itself (CHECKOUT.ORDER.*) or the order of a
 * capture (PAYMENT.CAPTURE.*). Only an id to look up; nothing else in the event is believed.
 */
export function paypalOrderIdOfEvent(event: unknown): string | null {
  const parsed = webhookEvent.safeParse(event);
  if (!parsed.success) return null;
  const { event_type: type, resource } = parsed.data;
  const id = type.startsWith("CHECKOUT.ORDER.")
    ? resource.id
    : type.startsWith("PAYMENT.CAPTURE.")
      ? resource.supplementary_data?.related_ids?.order_id
      : undefined;
  return typeof id === "string" && /^[A-Za-z0-9-]{1,64}$/.test(id) ? id : null;
}

const webhookEvent = z.object({
  event_type: z.string(),
  resource: z.object({
    id: z.string().optional(),
    supplementary_data: z.object({ related_ids: z.object({ order_id: z.string().optional() }).optional() }).optional(),
  }),
});
