import { completedSteps, PROGRESS_STEPS } from "~/orders/progress";
import type { PublicOrder } from "~/orders/public-order";
import { formatDate, formatUsd } from "~/components/shared";
import { OrderSummary } from "./checkout/OrderSummary";
import { OrderShipment } from "./OrderShipment";

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
      {order.refund ? (
        <p className="notice notice--info" data-testid="order-refund">
          Refunded {formatUsd(order.refund.amountCents)} on {formatDate(order.refund.refundedAt)} to the card or account you paid with.
        </p>
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
