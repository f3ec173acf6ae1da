import { Form, useNavigation } from "@remix-run/react";
import { ORDER_STATUSES, type OrderStatus } from "~/orders/status";
import { CsrfField } from "./CsrfField";

/**
 * A plain POST: works without script. Any of the four statuses may be set,
 * in any order.
 */
export function StatusForm({ orderId, status, csrf, action }: { orderId: string; status: OrderStatus; csrf: string; action: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("orderId") === orderId;
  return (
    <Form method="post" action={action} className="status-form" preventScrollReset>
      <CsrfField token={csrf} />
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="orderId" value={orderId} />
      <div className="field">
        <label htmlFor={`status-${orderId}`}>Order status</label>
        <select id={`status-${orderId}`} name="status" defaultValue={status} key={`${orderId}-${status}`}>
          {ORDER_STATUSES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? "Updating…" : "Update Status"}
      </button>
    </Form>
  );
}
