import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import type { MoneyProblem, MoneyProblems } from "~/payments/money-problems.server";
import { formatDate, formatUsd, SiteLink } from "~/components/shared";
import { DONE_BY_AN_OWNER } from "~/staff/roles";
import { CsrfField } from "./CsrfField";
import { StaffTable } from "./StaffTable";

const WHY: Record<MoneyProblem["why"], string> = {
  duplicate: "Duplicate payment: the order was paid by another payment",
  "order-cancelled": "The order was cancelled",
  "no-order": "Paid at the provider, no order yet",
  "discount-taken": "Arrived after its LOVERUB10 discount went to another order of the customer",
  "stock-gone": "Arrived after the last units went to another order: refunded, no order",
  "capture-due": "Affirm loan not captured yet: ship the order (or cancel and refund it) before the authorization ends",
};

/**
 * Money staff must settle: shoppers charged twice first (the store refunds
 * them at once; one whose refund failed keeps a Refund button), payments of
 * cancelled orders (each Refund form posts the staff CSRF token, so it works
 * without script), loans to capture before they expire, payments the provider
 * approved with no order yet, and test orders apart. Refunds are an owner's:
 * a staff account (`mayRefund` false) sees a line saying so where each Refund
 * button would be.
 */
export function MoneyProblemsSection({
  problems,
  csrf,
  formAction,
  hrefFor,
  mayRefund,
}: {
  problems: MoneyProblems;
  csrf: string;
  formAction: string;
  hrefFor: (orderId: string) => string;
  mayRefund: boolean;
}) {
  return (
    <section className="staff-money" aria-labelledby="money-heading">
      <h2 id="money-heading">Payments to settle</h2>

      <h3>Shoppers charged twice</h3>
      {problems.chargedTwice.length === 0 ? (
        <p className="staff-empty">No shopper was charged twice.</p>
      ) : (
        <PaymentsTable rows={problems.chargedTwice} hrefFor={hrefFor} caption="Second payments, newest first">
          {(row) => (row.refundReference ? <>Refunded ({row.refundReference})</> : refundForm(row))}
        </PaymentsTable>
      )}

      <h3>Payments to refund</h3>
      {problems.toRefund.length === 0 ? (
        <p className="staff-empty">No payment to refund.</p>
      ) : (
        <PaymentsTable rows={problems.toRefund} hrefFor={hrefFor} caption="Payments to refund, newest first">
          {refundForm}
        </PaymentsTable>
      )}

      <h3>Loans to capture</h3>
      {problems.captureDue.length === 0 ? (
        <p className="staff-empty">No authorization is about to expire.</p>
      ) : (
        <PaymentsTable rows={problems.captureDue} hrefFor={hrefFor} caption="Uncaptured authorizations">
          {(row) => (row.authorizationExpiresAt ? <>Expires {formatDate(row.authorizationExpiresAt)}</> : null)}
        </PaymentsTable>
      )}

      <h3>Paid without an order</h3>
      {problems.paidWithoutOrder.length === 0 ? (
        <p className="staff-empty">Every approved payment has its order.</p>
      ) : (
        <PaymentsTable rows={problems.paidWithoutOrder} hrefFor={hrefFor} caption="Approved payments without an order" />
      )}

      <h3>Test orders</h3>
      <p>Paid on the offline test page: no money moved, nothing to refund.</p>
      {problems.testOrders.length === 0 ? (
        <p className="staff-empty">No test orders.</p>
      ) : (
        <ul className="staff-test-orders">
          {problems.testOrders.map((order) => (
            <li key={order.orderId}>
              <SiteLink to={hrefFor(order.orderId)}>{order.orderId}</SiteLink> · {formatUsd(order.totalCents)} ·{" "}
              {formatDate(order.createdAt)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );

  function refundForm(row: MoneyProblem) {
    if (!mayRefund)
      return (
        <span className="staff-muted" data-testid="refund-by-owner">
          {DONE_BY_AN_OWNER.refunds}
        </span>
      );
    return (
      <Form method="post" action={formAction}>
        <CsrfField token={csrf} />
        <input type="hidden" name="intent" value="refund" />
        <input type="hidden" name="attemptId" value={row.attemptId} />
        <button type="submit" className="button button--small button--dark">
          Refund {formatUsd(row.amountCents)}
          <span className="visually-hidden"> of payment {row.attemptId}</span>
        </button>
      </Form>
    );
  }
}

const PAYMENT_COLUMNS = ["Payment", "Provider", "Amount", "Why", "Order", "Date"] as const;

function PaymentsTable({
  rows,
  hrefFor,
  caption,
  children,
}: {
  rows: MoneyProblem[];
  hrefFor: (orderId: string) => string;
  caption: string;
  children?: (row: MoneyProblem) => ReactNode;
}) {
  return (
    <StaffTable caption={caption} columns={children ? [...PAYMENT_COLUMNS, "Action"] : PAYMENT_COLUMNS}>
      {rows.map((row) => (
        <tr key={row.attemptId} data-testid="money-row" data-attempt-id={row.attemptId}>
          <td data-label="Payment">
            {row.attemptId}
            {row.reference ? <div className="staff-muted">{row.reference}</div> : null}
          </td>
          <td data-label="Provider">{row.provider}</td>
          <td data-label="Amount">{formatUsd(row.amountCents)}</td>
          <td data-label="Why">{WHY[row.why]}</td>
          <td data-label="Order">{row.orderId ? <SiteLink to={hrefFor(row.orderId)}>{row.orderId}</SiteLink> : "—"}</td>
          <td data-label="Date">{formatDate(row.createdAt)}</td>
          {children ? <td data-label="Action">{children(row)}</td> : null}
        </tr>
      ))}
    </StaffTable>
  );
}
