import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { cancelPayment } from "~/payments/cancel-payment.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true };

/** Every provider's cancel URL (and the test page's Cancel): back to the checkout, which says "Payment cancelled". */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  return redirect(await cancelPayment(context.store, params.get("checkout_token") ?? "", params.get("attempt") ?? ""), 303);
}

export const action = refuseNonGet;
