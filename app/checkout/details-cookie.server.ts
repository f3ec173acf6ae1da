import type { Database } from "~/db/database.server";
import { signedCookie } from "~/utils/cookies.server";
import { customerDetails, type CustomerDetails } from "./customer-fields";
import { getCheckout } from "./checkout.server";

/**
 * The customer details of this browser's pending checkout (spec section 3: kept during checkout,
 * removed by the purchase reset). The details stay on the server, in the pending checkout; this
 * signed cookie only points at it, so "Change details" refills the form without script. A paid
 * checkout no longer counts, and the order-complete page clears the cookie.
 */
const detailsCookie = signedCookie("checkout_details", { maxAge: 60 * 60 * 24 * 30 });

export function detailsCookieHeader(request: Request, checkoutToken: string): Promise<string> {
  return detailsCookie.serialize(request, checkoutToken);
}

export function clearDetailsCookieHeader(request: Request): Promise<string> {
  return detailsCookie.serialize(request, "", { maxAge: 0 });
}

/** The form values of the pending checkout this browser last submitted, or null. */
export async function pendingCustomerDetails(db: Database, request: Request): Promise<CustomerDetails | null> {
  const token = await detailsCookie.parse(request);
  if (typeof token !== "string" || !token) return null;
  const checkout = await getCheckout(db, token);
  return checkout?.status === "pending" ? customerDetails(checkout.customer) : null;
}
