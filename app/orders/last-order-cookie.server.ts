import { signedCookie, type CookieKeys } from "~/utils/cookies.server";

/** Remembers this browser's last order for /checkout-confirmation. */
const lastOrderCookie = signedCookie("last_order", { maxAge: 60 * 60 * 24 * 30 });

export async function readLastOrderId(keys: CookieKeys, request: Request): Promise<string | null> {
  const value = await lastOrderCookie.parse(keys, request);
  return typeof value === "string" ? value : null;
}

export function lastOrderCookieHeader(keys: CookieKeys, request: Request, orderId: string): Promise<string> {
  return lastOrderCookie.serialize(keys, request, orderId);
}
