import { formatDate } from "~/components/shared";
import type { Shipment } from "~/orders/shipping";

/** Under Shipped on the order page: who carries the parcel, its number, the carrier's tracking page and the delivery date. */
export function OrderShipment({ shipment }: { shipment: Shipment | null }) {
  if (!shipment) return null;
  return (
    <section className="order-shipment" aria-labelledby="order-shipment-heading" data-testid="order-shipment">
      <h3 id="order-shipment-heading">Shipment</h3>
      <dl>
        <div>
          <dt>Carrier</dt>
          <dd>{shipment.carrier}</dd>
        </div>
        <div>
          <dt>Tracking number</dt>
          <dd>{shipment.trackingNumber}</dd>
        </div>
      </dl>
      {shipment.trackingUrl ? (
        <p>
          <a href={shipment.trackingUrl} rel="noreferrer noopener">
            Track your parcel<span className="visually-hidden"> on the {shipment.carrier} website</span>
          </a>
        </p>
      ) : null}
      {shipment.deliveredAt ? (
        <p className="notice notice--success" data-testid="order-delivered">
          Delivered on {formatDate(shipment.deliveredAt)}
        </p>
      ) : null}
    </section>
  );
}
