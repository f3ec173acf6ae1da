import { useLocation } from "@remix-run/react";
import { NOTIFY_ME_HONEYPOT_FIELD, NOTIFY_ME_MESSAGES, notifyMeStatus } from "~/stock/notify-me";

/**
 * "Notify me when available" on an out-of-stock product's page: a plain form (no script of its own) that
 * posts to /notify-me, which comes back here with the answer's code in `?notify=`; the fixed text of that
 * code is shown under the form (never anything else from the query).
 */
export function NotifyMeForm({ productKey, productTitle }: { productKey: string; productTitle: string }) {
  const status = notifyMeStatus(useLocation().search);
  return (
    <form method="post" action="/notify-me" id="notify-me" className="notify-me" aria-label={`Notify me when ${productTitle} is available`}>
      <input type="hidden" name="productKey" value={productKey} />
      <label htmlFor="notify-me-email">Email me when it is back in stock</label>
      <div className="newsletter__row">
        <input id="notify-me-email" type="email" name="email" autoComplete="email" required />
        <button type="submit" className="button button--primary">
          Notify me
        </button>
      </div>
      <div className="honeypot" aria-hidden="true">
        <label htmlFor="notify-me-homepage">Leave this field empty</label>
        <input id="notify-me-homepage" type="text" name={NOTIFY_ME_HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
      </div>
      <p className={status === "sent" || status === "available" ? "form-success" : "field-error"} role="status">
        {status ? NOTIFY_ME_MESSAGES[status] : ""}
      </p>
    </form>
  );
}
