import { Form, useNavigation } from "@remix-run/react";
import { CARRIERS } from "~/orders/shipping";
import { ORDER_STATUSES, type OrderStatus } from "~/orders/status";
import { CsrfField } from "./CsrfField";

/**
 * A plain POST: works without script. Any of the four statuses may be set,
 * in any order; Shipped takes the carrier and the tracking number (posting
 * Shipped again with other ones corrects them).
 */
export function StatusForm({
  orderId,
  status,
  csrf,
  action,
  shipment,
}: {
  orderId: string;
  status: OrderStatus;
  csrf: string;
  action: string;
  shipment: { carrier: string; trackingNumber: string } | null;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("orderId") === orderId && navigation.formData.get("intent") === "status";
  const key = `${orderId}-${status}-${shipment?.carrier ?? ""}-${shipment?.trackingNumber ?? ""}`;
  return (
    <Form method="post" action={action} className="status-form" preventScrollReset>
      <CsrfField token={csrf} />
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="orderId" value={orderId} />
      <div className="field">
        <label htmlFor={`status-${orderId}`}>Order status</label>
        <select id={`status-${orderId}`} name="status" defaultValue={status} key={key}>
          {ORDER_STATUSES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="status-form__parcel">
        <legend>For Shipped</legend>
        <div className="field">
          <label htmlFor={`carrier-${orderId}`}>Carrier</label>
          <select id={`carrier-${orderId}`} name="carrier" defaultValue={shipment?.carrier ?? ""} key={key}>
            <option value="">Choose a carrier</option>
            {CARRIERS.map((carrier) => (
              <option key={carrier.id} value={carrier.id}>
                {carrier.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`tracking-${orderId}`}>Tracking number</label>
          <input
            id={`tracking-${orderId}`}
            name="trackingNumber"
            defaultValue={shipment?.trackingNumber ?? ""}
            key={key}
            maxLength={80}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      </fieldset>
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? "Updating…" : "Update Status"}
      </button>
    </Form>
  );
}
