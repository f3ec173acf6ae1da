import { Form } from "@remix-run/react";
import { formatDate } from "~/components/shared";
import type { Shipment } from "~/orders/shipping";
import { CsrfField } from "./CsrfField";

/**
 * A shipped order's parcel on the staff panel: carrier, tracking link, and its delivery date, which
 * EasyPost's tracker records when it follows the parcel; staff record it otherwise ("Delivered on"),
 * and a test order can be marked delivered today with one button.
 */
export function ShipmentSection({
  orderId,
  shipment,
  shippedAt,
  isTestOrder,
  csrf,
  action,
}: {
  orderId: string;
  shipment: Shipment;
  shippedAt: Date | null;
  isTestOrder: boolean;
  csrf: string;
  action: string;
}) {
  const today = new Date().toISOString().slice(0, 10);
  return (
    <section className="order-panel__section" aria-labelledby="panel-shipment-heading" data-testid="panel-shipment">
      <h3 id="panel-shipment-heading">Shipment</h3>
      <p>
        {shipment.carrier}, tracking number{" "}
        {shipment.trackingUrl ? (
          <a href={shipment.trackingUrl} rel="noreferrer noopener" target="_blank">
            {shipment.trackingNumber}
          </a>
        ) : (
          shipment.trackingNumber
        )}
        {shippedAt ? (
          <>
            <br />
            Shipped on <time dateTime={shippedAt.toISOString()}>{formatDate(shippedAt)}</time>
          </>
        ) : null}
        <br />
        {shipment.deliveredAt ? (
          <span data-testid="panel-delivered">
            Delivered on <time dateTime={shipment.deliveredAt}>{formatDate(shipment.deliveredAt)}</time>
          </span>
        ) : (
          "Not delivered yet"
        )}
      </p>
      <Form method="post" action={action} className="status-form" preventScrollReset>
        <CsrfField token={csrf} />
        <input type="hidden" name="intent" value="delivered" />
        <input type="hidden" name="orderId" value={orderId} />
        <div className="field">
          <label htmlFor={`delivered-${orderId}`}>Delivered on</label>
          <input
            id={`delivered-${orderId}`}
            type="date"
            name="deliveredOn"
            max={today}
            required
            defaultValue={shipment.deliveredAt?.slice(0, 10) ?? ""}
            key={shipment.deliveredAt ?? "none"}
          />
        </div>
        <button type="submit" className="button button--dark">
          Record delivery
        </button>
      </Form>
      {isTestOrder && !shipment.deliveredAt ? (
        <Form method="post" action={action} preventScrollReset>
          <CsrfField token={csrf} />
          <input type="hidden" name="intent" value="delivered-test" />
          <input type="hidden" name="orderId" value={orderId} />
          <button type="submit" className="button button--small">
            Mark delivered (test mode)
          </button>
        </Form>
      ) : null}
    </section>
  );
}
