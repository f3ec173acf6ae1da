import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { cancelPayment } from "~/payments/cancel-payment.server";
import { getRuntime } from "~/runtime.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";

/** Every provider's cancel URL (and the test page's Cancel): back to the checkout, which says "Payment cancelled". */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const { config, database } = await getRuntime();
  return redirect(await cancelPayment(database.db, config, params.get("checkout_token") ?? "", params.get("attempt") ?? ""), 303);
}

export const action = refuseNonGet;
