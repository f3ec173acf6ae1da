import type { StoreRuntime } from "~/store-runtime";
import { signedCookie, type CookieKeys } from "~/utils/cookies.server";
import type { CustomerDetails } from "~/orders/customer";
import { customerDetails } from "./customer-details";
import { getCheckout } from "./checkout.server";

/**
 * The customer details of this browser's pending checkout (spec section 3: kept during checkout,
 * removed by the purchase reset). The details stay on the server, in the pending checkout; this
 * signed cookie only points at it, so "Change details" refills the form without script. A paid
 * checkout no longer counts, and the order-complete page clears the cookie.
 */
const detailsCookie = signedCookie("checkout_details", { maxAge: 60 * 60 * 24 * 30 });

export function detailsCookieHeader(keys: CookieKeys, request: Request, checkoutToken: string): Promise<string> {
  return detailsCookie.serialize(keys, request, checkoutToken);
}

export function clearDetailsCookieHeader(keys: CookieKeys, request: Request): Promise<string> {
  return detailsCookie.serialize(keys, request, "", { maxAge: 0 });
}

/** The token of the checkout this browser last submitted (pending or not), or null. */
export async function lastCheckoutToken(keys: CookieKeys, request: Request): Promise<string | null> {
  const token = await detailsCookie.parse(keys, request);
  return typeof token === "string" && token ? token : null;
}

/** The form values of the pending checkout this browser last submitted, or null. */
export async function pendingCustomerDetails(store: StoreRuntime, request: Request): Promise<CustomerDetails | null> {
  const token = await lastCheckoutToken(store, request);
  if (!token) return null;
  const checkout = await getCheckout(store.db, token);
  return checkout?.status === "pending" ? customerDetails(checkout.customer) : null;
}
