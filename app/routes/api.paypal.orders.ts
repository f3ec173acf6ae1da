import type { ActionFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { getDb } from "~/runtime.server";
import { createPayPalOrderFor } from "~/payments/paypal-order-request.server";

/** POST { checkoutToken } -> { orderId, attemptId }: the PayPal buttons' createOrder. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  const { status, body } = await createPayPalOrderFor(await getDb(), getConfig(), request);
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
}
