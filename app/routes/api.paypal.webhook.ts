import type { ActionFunctionArgs } from "@remix-run/node";
import { handlePayPalWebhook } from "~/payments/webhooks.server";
import { getRuntime } from "~/runtime.server";

/**
 * POST /api/paypal/webhook: PayPal's events (CHECKOUT.ORDER.APPROVED,
 * PAYMENT.CAPTURE.COMPLETED, PAYMENT.CAPTURE.DENIED, ...), verified with
 * PayPal's verify-webhook-signature against PAYPAL_WEBHOOK_ID. An event only
 * makes the server ask PayPal about the order it names.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  const rawBody = await request.text();
  let runtime;
  try {
    runtime = await getRuntime();
  } catch {
    return Response.json({ error: "Database unavailable." }, { status: 503 });
  }
  try {
    const { status, body } = await handlePayPalWebhook(runtime.database.db, runtime.config, request.headers, rawBody);
    return Response.json(body, { status });
  } catch (error) {
    console.error(`PayPal webhook could not be handled: ${error instanceof Error ? error.message : String(error)}`);
    return Response.json({ error: "Temporarily unavailable." }, { status: 503 });
  }
}

export function loader() {
  return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
}
