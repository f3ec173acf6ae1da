import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { getCheckout } from "~/checkout/checkout.server";
import { checkoutPagePath } from "~/checkout/paths";
import { getDb } from "~/runtime.server";
import { paymentProviderFor } from "~/services/payments/index.server";
import { isPaymentMethod } from "~/services/payments/types";

/** Starts paying a pending checkout with the chosen method, for the checkout's own total. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const method = form.get("method");
  const db = await getDb();
  const checkout = await getCheckout(db, String(form.get("checkout") ?? ""));
  if (!checkout || !isPaymentMethod(method)) return redirect("/cart");
  if (checkout.status === "paid" && checkout.orderId) return redirect(`/order-status/${checkout.orderId}`);

  const origin = new URL(request.url).origin;
  const query = `checkout_token=${encodeURIComponent(checkout.token)}`;
  const { redirectUrl } = await paymentProviderFor(db, method).startPayment({
    checkoutToken: checkout.token,
    amountCents: checkout.totalCents,
    description: `Order of ${checkout.items.length} item(s)`,
    returnUrl: `${origin}/checkout-authorized/${method}?${query}`,
    cancelUrl:
      method === "affirm" ? `${origin}/checkout-canceled-affirm?${query}` : `${origin}${checkoutPagePath(checkout.kind, checkout.token)}`,
  });
  return redirect(redirectUrl);
}

export function loader() {
  return redirect("/cart");
}
