import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getDb } from "~/runtime.server";
import { affirmReturnPath } from "~/payments/affirm-confirmation.server";

/**
 * Affirm's user_confirmation_url: once the shopper confirms the loan, Affirm
 * posts `checkout_token` here (or adds it to the query, for the GET variant).
 * Nothing is decided here: the shopper goes on to the return page, which
 * authorizes the loan on the server before recording the order.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => null);
  const token = form?.get("checkout_token");
  return redirect(await affirmReturnPath(await getDb(), typeof token === "string" ? token : null), 303);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("checkout_token");
  return redirect(await affirmReturnPath(await getDb(), token), 303);
}
