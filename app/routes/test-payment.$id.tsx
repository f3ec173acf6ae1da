import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { getCheckout } from "~/checkout/checkout.server";
import type { Database } from "~/db/database.server";
import type { StoreRuntime } from "~/store-runtime";
import { paymentCancelPath, paymentReturnPath } from "~/payments/paths";
import { testPaymentsEnabled } from "~/services/payments/index.server";
import { decideTestPayment, getTestPayment } from "~/services/payments/test-payments.server";
import { isPaymentMethod, PAYMENT_METHODS } from "~/services/payments/types";
import { formatUsd } from "~/components/shared";
import { readForm } from "~/utils/forms.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "noindex" };

export const meta: MetaFunction = () => [{ title: "Test payment page" }];

/** The test page exists only while test payments are on: otherwise it is not found, and nothing it posts is written. */
function testPaymentsDb({ config, db }: StoreRuntime): Database {
  if (!testPaymentsEnabled(config)) throw new Response("Payment not found", { status: 404 });
  return db;
}

export async function loader({ params, context }: LoaderFunctionArgs) {
  const db = testPaymentsDb(context.store);
  const payment = await getTestPayment(db, params.id ?? "");
  const checkout = payment ? await getCheckout(db, payment.checkoutToken) : null;
  if (!payment || !checkout || !isPaymentMethod(payment.method)) throw new Response("Payment not found", { status: 404 });
  return {
    payment: {
      id: payment.id,
      status: payment.status,
      amountCents: payment.amountCents,
      methodLabel: PAYMENT_METHODS[payment.method].label,
    },
    items: checkout.items.map((item) => ({ title: item.title, quantity: item.quantity })),
  };
}

/** Approve or Decline: the stand-in's record of the decision, then back to the store's return page. */
export async function action({ params, request, context }: ActionFunctionArgs) {
  const db = testPaymentsDb(context.store);
  const { decision } = await readForm(request, context.store.config);
  const payment = await getTestPayment(db, params.id ?? "");
  if (!payment || !isPaymentMethod(payment.method) || !["approved", "declined", "cancelled"].includes(decision ?? "")) {
    throw new Response("Payment not found", { status: 404 });
  }
  const attemptId = payment.id.replace(/^tp_/, "");
  if (decision === "cancelled") return redirect(paymentCancelPath(payment.checkoutToken, attemptId), 303);
  await decideTestPayment(db, payment.id, decision === "approved" ? "approved" : "declined");
  return redirect(paymentReturnPath(payment.method, payment.checkoutToken, attemptId));
}

export default function TestPaymentPage() {
  const { payment, items } = useLoaderData<typeof loader>();
  return (
    <div className="container test-payment">
      <p className="test-payment__banner" role="note">
        TEST PAYMENT PAGE — this is the store's offline stand-in for a payment provider. No card is charged and no money moves.
      </p>
      <h1>Pay {formatUsd(payment.amountCents)}</h1>
      <p>Method: {payment.methodLabel}</p>
      <ul>
        {items.map((item) => (
          <li key={item.title}>
            {item.quantity} × {item.title}
          </li>
        ))}
      </ul>
      {payment.status === "pending" ? (
        <Form method="post" className="test-payment__actions">
          <button type="submit" name="decision" value="approved" className="button button--primary">
            Approve payment
          </button>
          <button type="submit" name="decision" value="declined" className="button">
            Decline payment
          </button>
          <button type="submit" name="decision" value="cancelled" className="button">
            Cancel and return to the store
          </button>
        </Form>
      ) : (
        <p>This payment was already {payment.status}.</p>
      )}
    </div>
  );
}
