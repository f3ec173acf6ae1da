import { completedSteps, PROGRESS_STEPS } from "~/orders/progress";
import type { PublicOrder } from "~/orders/public-order";
import type { AfterSaleStatus } from "~/db/schema";
import { formatDate, formatUsd } from "~/components/shared";
import { OrderSummary } from "./checkout/OrderSummary";
import { OrderShipment } from "./OrderShipment";

/** A request's status as its customer reads it. */
const AFTER_SALE_STATUS_TEXT: Record<AfterSaleStatus, string> = {
  requested: "requested, waiting for our answer",
  approved: "approved",
  declined: "declined",
  received: "received",
  refunded: "received and refunded",
};

/** An order as its shopper sees it: progress, date, first name and city, items and totals. */
export function OrderReceipt({ order }: { order: PublicOrder }) {
  const done = completedSteps(order.status);
  return (
    <section className="order-receipt" aria-labelledby="order-receipt-heading">
      <h2 id="order-receipt-heading">Order {order.orderId}</h2>
      <p>
        Placed on {formatDate(order.createdAt)} by {order.firstName}, shipping to {order.city}.
      </p>
      {order.status === "Cancelled" ? (
        <p className="notice notice--error" role="status">
          This order was cancelled. If you have questions, please contact us.
        </p>
      ) : (
        <ol className="progress" aria-label={`Order progress: ${PROGRESS_STEPS[done - 1]}`}>
          {PROGRESS_STEPS.map((step, index) => (
            <li
              key={step}
              className={index < done ? "progress__step is-done" : "progress__step"}
              aria-current={index === done - 1 ? "step" : undefined}
            >
              <span className="progress__dot" aria-hidden="true">
                {index < done ? "✓" : index + 1}
              </span>
              <span className="progress__label">
                {step}
                <span className="visually-hidden">{index < done ? " (done)" : " (not yet)"}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
      <p>
        Status: <strong data-testid="order-status">{order.status}</strong>
      </p>
      <OrderShipment shipment={order.shipment} />
      {order.afterSale.length > 0 ? (
        <section aria-labelledby="order-after-sale-heading" data-testid="order-after-sale">
          <h3 id="order-after-sale-heading">Returns and defect claims</h3>
          <ul className="order-receipt__list">
            {order.afterSale.map((request) => (
              <li key={request.number}>
                {request.kind === "return" ? "Return" : "Defect claim"} {request.number}, {formatDate(request.createdAt)}:{" "}
                <strong>{AFTER_SALE_STATUS_TEXT[request.status]}</strong>
                <small>{request.items.map((item) => `${item.quantity} × ${item.title}`).join("; ")}</small>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {order.refunds.length > 0 ? (
        <section aria-labelledby="order-refunds-heading" data-testid="order-refunds">
          <h3 id="order-refunds-heading">Refunds</h3>
          <ul className="order-receipt__list">
            {order.refunds.map((refund) => (
              <li key={`${refund.what}-${refund.refundedAt}`}>
                {refund.what}: <strong>{formatUsd(refund.amountCents)}</strong> refunded on {formatDate(refund.refundedAt)} to the card or
                account you paid with.
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {order.isTestPayment ? (
        <p className="notice notice--info" data-testid="test-order">
          TEST ORDER: paid on the store&apos;s test payment page. No money moved and nothing will ship.
        </p>
      ) : null}
      <OrderSummary
        lines={order.items.map((item, index) => ({
          key: `${index}-${item.productKey}`,
          title: item.title,
          model: item.model,
          image: item.imageUrl,
          quantity: item.quantity,
          unitPriceCents: item.unitPriceCents,
        }))}
        totals={order}
      />
    </section>
  );
}
