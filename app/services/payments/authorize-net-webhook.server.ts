import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/** Authorize.Net's webhook notifications, read before the API is asked: the signature and the transaction named. */

/**
 * Whether `X-ANET-Signature: sha512=HEX` (upper-case from Authorize.Net; either case taken) is the
 * HMAC-SHA512 of the raw body under the merchant's Signature Key. The key is 128 hex characters, but
 * Authorize.Net keys the HMAC with that text itself, as its samples do (PHP `hash_hmac('sha512', $body,
 * $signatureKey)`), not with the bytes the hex stands for. Compared in constant time; anything malformed is false.
 */
export function isAuthorizeNetSignatureValid(rawBody: string, header: string | null, signatureKey: string): boolean {
  const match = /^sha512=([0-9a-f]{128})$/i.exec((header ?? "").trim());
  const key = signatureKey.trim();
  if (!match || !key) return false;
  const expected = createHmac("sha512", Buffer.from(key, "utf8")).update(rawBody, "utf8").digest();
  const sent = Buffer.from(match[1], "hex");
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

/** The transaction id of a `net.authorize.payment.*` notification, to look up; nothing else in it is believed. */
export function authorizeNetTransactionOfEvent(event: unknown): string | null {
  const parsed = z
    .object({ eventType: z.string(), payload: z.object({ entityName: z.string().optional(), id: z.union([z.string(), z.number()]) }) })
    .safeParse(event);
  if (!parsed.success || !parsed.data.eventType.startsWith("net.authorize.payment.")) return null;
  const id = String(parsed.data.payload.id);
  return parsed.data.payload.entityName === "transaction" && /^\d{1,20}$/.test(id) ? id : null;
}
