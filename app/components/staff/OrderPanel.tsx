import { PAYMENT_METHODS } from "~/services/payments/types";
import { formatDate, formatPhone, formatUsd, SiteLink } from "~/components/shared";
import type { OrderDetail } from "~/staff/dashboard.server";
import { AuditTrail } from "./AuditTrail";
import { StatusBadge } from "./StatusBadge";
import { ShipmentSection } from "./ShipmentSection";
import { StatusForm } from "./StatusForm";

function paymentLabel(method: string): string {
  return Object.hasOwn(PAYMENT_METHODS, method) ? PAYMENT_METHODS[method as keyof typeof PAYMENT_METHODS].label : method;
}

/** The side panel of one order: customer, address, items, totals, payment, the status form and the history. */
export function OrderPanel({
  order,
  csrf,
  closeHref,
  formAction,
}: {
  order: OrderDetail;
  csrf: string;
  closeHref: string;
  formAction: string;
}) {
  const { customer } = order;
  return (
    <aside className="order-panel" aria-labelledby="order-panel-heading" data-testid="order-panel">
      <div className="order-panel__head">
        <h2 id="order-panel-heading">Order {order.orderId}</h2>
        <SiteLink to={closeHref} className="order-panel__close" keepScroll>
          Close<span className="visually-hidden"> order {order.orderId}</span>
        </SiteLink>
      </div>
      <p className="order-panel__meta">
        <StatusBadge status={order.status} /> Placed on <time dateTime={order.createdAt.toISOString()}>{formatDate(order.createdAt)}</time>
      </p>

      <StatusForm orderId={order.orderId} status={order.status} csrf={csrf} action={formAction} shipment={order.shipment} />

      {order.shipment ? (
        <ShipmentSection
          orderId={order.orderId}
          shipment={order.shipment}
          shippedAt={order.shippedAt}
          isTestOrder={order.paymentProvider === "test"}
          csrf={csrf}
          action={formAction}
        />
      ) : null}

      <section className="order-panel__section" aria-labelledby="panel-customer-heading">
        <h3 id="panel-customer-heading">Customer</h3>
        <p>
          {customer.name || "(no name)"}
          <br />
          <a href={`mailto:${customer.email}`}>{customer.email}</a>
          {customer.phone ? (
            <>
              <br />
              {formatPhone(customer.phone) || customer.phone}
            </>
          ) : null}
        </p>
      </section>

      <section className="order-panel__section" aria-labelledby="panel-address-heading">
        <h3 id="panel-address-heading">Shipping address</h3>
        <address>
          {customer.address}
          <br />
          {[customer.city, [customer.state, customer.postalCode].filter(Boolean).join(" ")].filter(Boolean).join(", ")}
          {customer.country ? (
            <>
              <br />
              {customer.country}
            </>
          ) : null}
        </address>
      </section>

      <section className="order-panel__section" aria-labelledby="panel-items-heading">
        <h3 id="panel-items-heading">Items</h3>
        <ul className="order-panel__items">
          {order.items.map((item, index) => (
            <li key={`${index}-${item.productKey}`}>
              <span>
                {item.title}
                <small>
                  {item.model ? `Model ${item.model} · ` : ""}Qty {item.quantity} × {formatUsd(item.unitPriceCents)}
                  {item.taxCents !== undefined ? ` · tax ${formatUsd(item.taxCents)}` : ""}
                </small>
              </span>
              <span className="order-panel__amount">{formatUsd(item.unitPriceCents * item.quantity)}</span>
            </li>
          ))}
        </ul>
        <dl className="order-panel__totals">
          <div>
            <dt>Subtotal</dt>
            <dd>{formatUsd(order.subtotalCents)}</dd>
          </div>
          <div>
            <dt>Shipping</dt>
            <dd>{order.shippingCents === 0 ? "Free" : formatUsd(order.shippingCents)}</dd>
          </div>
          {order.discountCents > 0 ? (
            <div>
              <dt>Discount</dt>
              <dd>−{formatUsd(order.discountCents)}</dd>
            </div>
          ) : null}
          <div data-testid="panel-tax">
            <dt>Sales tax</dt>
            <dd>
              {formatUsd(order.taxCents)}
              {order.tax.shippingTaxCents > 0 ? <small> (shipping {formatUsd(order.tax.shippingTaxCents)})</small> : null}
              {order.tax.jurisdictions.length > 0 ? (
                <small className="order-panel__detail">
                  {order.tax.jurisdictions
                    .map((place) => `${place.name} ${place.ratePercent}%: ${formatUsd(place.amountCents)}`)
                    .join("; ")}
                </small>
              ) : null}
              {order.tax.note ? <small className="order-panel__detail">{order.tax.note}</small> : null}
            </dd>
          </div>
          <div className="order-panel__total">
            <dt>Total</dt>
            <dd data-testid="panel-total">{formatUsd(order.totalCents)}</dd>
          </div>
          <div>
            <dt>Payment method</dt>
            <dd>
              {paymentLabel(order.paymentMethod)}
              {order.paymentProvider === "test" ? (
                <strong className="order-panel__test" data-testid="panel-test-payment">
                  {" "}
                  TEST: paid on the test payment page, no money moved
                </strong>
              ) : null}
            </dd>
          </div>
          {order.tax.transactions.length > 0 ? (
            <div data-testid="panel-tax-records">
              <dt>Tax records</dt>
              <dd>
                <ul className="order-panel__records">
                  {order.tax.transactions.map((record) => (
                    <li key={record.reference}>
                      {record.kind === "commit" ? "Collected" : "Reversed"} {formatUsd(record.taxCents)} ({record.reference}):{" "}
                      {record.status === "recorded"
                        ? `recorded at ${order.tax.provider === "stripe" ? "Stripe" : "the offline table"} (${record.providerTransactionId})`
                        : record.status === "failed"
                          ? `NOT RECORDED after ${record.attempts} tries: ${record.lastError ?? "unknown error"}`
                          : record.attempts > 0
                            ? `waiting to be sent again (${record.lastError ?? "retrying"})`
                            : "being sent"}
                    </li>
                  ))}
                </ul>
              </dd>
            </div>
          ) : null}
          {order.refund ? (
            <div data-testid="panel-refund">
              <dt>Refunded</dt>
              <dd>
                {formatUsd(order.refund.amountCents)} on{" "}
                <time dateTime={order.refund.refundedAt.toISOString()}>{formatDate(order.refund.refundedAt)}</time>
                <small> ({order.refund.refundReference})</small>
              </dd>
            </div>
          ) : null}
        </dl>
      </section>

      <AuditTrail history={order.history} createdAt={order.createdAt} />
    </aside>
  );
}
