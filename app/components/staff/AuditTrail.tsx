import { formatDateTimeUtc } from "~/components/shared";
import type { StatusChange } from "~/staff/dashboard.server";

/** Who changed the status, when, from what to what; newest first. */
export function AuditTrail({ history, createdAt }: { history: StatusChange[]; createdAt: Date }) {
  return (
    <section className="order-panel__section" aria-labelledby="audit-heading">
      <h3 id="audit-heading">History</h3>
      <ol className="audit-trail" data-testid="audit-trail">
        {history.map((change, index) => (
          <li key={`${change.changedAt.toISOString()}-${index}`}>
            <span>
              <strong>{change.fromStatus}</strong> → <strong>{change.toStatus}</strong> by {change.staffEmail}
            </span>
            <time dateTime={change.changedAt.toISOString()}>{formatDateTimeUtc(change.changedAt)}</time>
          </li>
        ))}
        <li>
          <span>Order placed (Approved)</span>
          <time dateTime={createdAt.toISOString()}>{formatDateTimeUtc(createdAt)}</time>
        </li>
      </ol>
    </section>
  );
}
