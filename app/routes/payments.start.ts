import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { getCheckout } from "~/checkout/checkout.server";
import { checkoutPagePath } from "~/checkout/paths";
import { detailsCookieHeader } from "~/checkout/details-cookie.server";
import { startPayment } from "~/payments/start-payment.server";
import { RATE_LIMITS, retryAfterSeconds } from "~/security/rate-limit.server";
import { isPaymentMethod } from "~/services/payments/types";
import { readForm } from "~/utils/forms.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true };

/** Starts paying a pending checkout with the chosen method (a plain form post: works without script). */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context.store.config);
  const method = form.method;
  const db = context.store.db;
  const checkout = await getCheckout(db, form.checkout ?? "");
  if (!checkout || !isPaymentMethod(method)) return redirect("/cart");

  // Back to the checkout page, which says why and for how long (a resource route has no page of its own).
  const limit = await context.store.rateLimiter.hit(RATE_LIMITS.paymentStart, context.clientAddress);
  if (!limit.allowed) {
    return redirect(`${checkoutPagePath(checkout.kind, checkout.token)}&payment_error=rate-limited`, {
      status: 303,
      headers: { "Retry-After": String(retryAfterSeconds(limit.retryAfterMs)) },
    });
  }

  const result = await startPayment(context.store, { checkout, method });
  switch (result.status) {
    case "started":
      return redirect(result.payment.redirectUrl);
    case "already-paid":
      return redirect(`/order-status/${result.orderId}`);
    case "promo-used":
      return redirect(`${checkoutPagePath(checkout.kind, checkout.token)}&payment_error=promo-used`, 303);
    case "repriced":
      return redirect(`${checkoutPagePath(result.checkout.kind, result.checkout.token)}&payment_error=repriced`, {
        status: 303,
        headers: { "Set-Cookie": await detailsCookieHeader(context.store, request, result.checkout.token) },
      });
    case "tax-failed":
      return redirect(`${checkoutPagePath(checkout.kind, checkout.token)}&payment_error=tax`, 303);
    case "out-of-stock":
      // The checkout page says which line is short (it reads the stock itself: no text travels in the address).
      return redirect(`${checkoutPagePath(checkout.kind, checkout.token)}&payment_error=stock`, 303);
    case "product-unavailable":
      // The checkout page says which product is no longer sold (it reads the catalogue itself).
      return redirect(`${checkoutPagePath(checkout.kind, checkout.token)}&payment_error=product`, 303);
    case "unavailable":
    case "failed":
      return redirect(`${checkoutPagePath(checkout.kind, checkout.token)}&payment_error=1`);
  }
}

export function loader() {
  return redirect("/cart");
}
