import { Form } from "@remix-run/react";
import { formatDate, formatUsd, SiteLink } from "~/components/shared";
import { CsrfField } from "./CsrfField";

/** A tax commit or reversal the provider never took, as the dashboard lists it. */
export interface TaxRecordProblem {
  id: string;
  orderId: string;
  kind: "commit" | "reversal";
  reference: string;
  taxCents: number;
  attempts: number;
  lastError: string | null;
  createdAt: string;
}

/**
 * Sales tax the provider has not recorded after every retry: each row's Retry sends it again now (a plain
 * post with the staff CSRF token). Until it is recorded, the provider's own reports miss it; the store's
 * tax report counts it already.
 */
export function TaxRecordsSection({
  records,
  csrf,
  formAction,
  hrefFor,
}: {
  records: TaxRecordProblem[];
  csrf: string;
  formAction: string;
  hrefFor: (orderId: string) => string;
}) {
  return (
    <section className="staff-money" aria-labelledby="tax-records-heading">
      <h2 id="tax-records-heading">Tax records to settle</h2>
      <p>
        <SiteLink to="/tax-report">Sales tax report</SiteLink>: tax collected, refunded and net per state and month.
      </p>
      {records.length === 0 ? (
        <p className="staff-empty">Every order's sales tax is recorded with the tax provider.</p>
      ) : (
        <table className="staff-table">
          <caption>Tax the provider has not recorded after every retry, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">What</th>
              <th scope="col">Tax</th>
              <th scope="col">Tries, last error</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {records.map((record) => (
              <tr key={record.id}>
                <td>
                  <SiteLink to={hrefFor(record.orderId)}>{record.orderId}</SiteLink>
                  <small> {formatDate(record.createdAt)}</small>
                </td>
                <td>
                  {record.kind === "commit" ? "Tax collected" : "Tax given back"} ({record.reference})
                </td>
                <td>{formatUsd(record.taxCents)}</td>
                <td>
                  {record.attempts}: {record.lastError ?? "unknown error"}
                </td>
                <td>
                  <Form method="post" action={formAction}>
                    <CsrfField token={csrf} />
                    <input type="hidden" name="intent" value="tax-retry" />
                    <input type="hidden" name="recordId" value={record.id} />
                    <button type="submit" className="button button--small">
                      Retry {record.reference}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
