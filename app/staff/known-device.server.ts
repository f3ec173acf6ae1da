import { randomBytes } from "node:crypto";
import { signedCookie, type CookieKeys } from "~/utils/cookies.server";
import { normalizeStaffEmail } from "./accounts.server";

/**
 * A browser that has signed in to an account before carries a `staff_device` cookie (signed, httpOnly,
 * sent to /login only) naming the account and a random id of the device. Its sign-in failures count
 * against a budget of the device's own instead of the account's, so guesses from elsewhere, which share
 * the account's budget, can never lock the owner out on a device they have used (see lockout.server.ts,
 * ADR 022). Signing in to another account on the same browser moves the cookie to that account.
 */
export const KNOWN_DEVICE_MAX_AGE_S = 365 * 24 * 60 * 60;

const knownDeviceCookie = signedCookie("staff_device", { maxAge: KNOWN_DEVICE_MAX_AGE_S, path: "/login" });

/** The id of this browser's device when it has signed in to `email` before; null otherwise (also for a forged cookie). */
export async function knownDeviceFor(keys: CookieKeys, request: Request, email: string): Promise<string | null> {
  const value = await knownDeviceCookie.parse(keys, request);
  if (!value || typeof value !== "object") return null;
  const { email: deviceEmail, device } = value as Record<string, unknown>;
  if (typeof device !== "string" || !/^[\w-]{24}$/.test(device)) return null;
  return deviceEmail === normalizeStaffEmail(email) ? device : null;
}

/** Set-Cookie after a successful sign-in: this browser is now a known device of the account, with a fresh id. */
export function knownDeviceCookieFor(keys: CookieKeys, request: Request, email: string): Promise<string> {
  return knownDeviceCookie.serialize(keys, request, { email: normalizeStaffEmail(email), device: randomBytes(18).toString("base64url") });
}
