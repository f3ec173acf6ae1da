import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatDateTimeUtc, SiteLink } from "~/components/shared";
import type { StockImportError } from "~/db/schema";
import { CsrfField } from "./CsrfField";
import { StaffTable } from "./StaffTable";

/**
 * What the staff desks' CSV imports (stock counts, catalogue prices) show alike: the upload form, the list of
 * recent imports, a preview's facts, and the rows with errors. Each desk renders its own changes.
 */

/** The upload form: a CSV file and the CSRF token, posted as multipart (it works without script). */
export function CsvUploadForm({ action, csrf, inputId, rulesId }: { action: string; csrf: string; inputId: string; rulesId: string }) {
  return (
    <Form method="post" action={action} encType="multipart/form-data" className="status-form">
      <CsrfField token={csrf} />
      <div className="field">
        <label htmlFor={inputId}>CSV file</label>
        <input id={inputId} name="file" type="file" accept=".csv,text/csv" required aria-describedby={rulesId} />
      </div>
      <button type="submit" className="button button--dark">
        Upload and preview
      </button>
    </Form>
  );
}

export interface ImportEntry {
  id: string;
  fileName: string;
  staffEmail: string;
  createdAt: string | Date;
  appliedAt: string | Date | null;
  rows: number;
  errors: number;
}

/** The last imports, newest first, each linking to its preview at `{basePath}/{id}`. */
export function RecentImports({ imports, basePath }: { imports: readonly ImportEntry[]; basePath: string }) {
  return (
    <section aria-labelledby="imports-heading">
      <h2 id="imports-heading">Recent imports</h2>
      {imports.length === 0 ? (
        <p className="staff-empty">No file imported yet.</p>
      ) : (
        <StaffTable
          caption="The last 10 imports, newest first"
          columns={["Uploaded", "File", "By", "Rows", "Errors", "Status"]}
          testId="imports"
        >
          {imports.map((entry) => (
            <tr key={entry.id}>
              <th scope="row">
                <SiteLink to={`${basePath}/${entry.id}`}>{formatDateTimeUtc(entry.createdAt)}</SiteLink>
              </th>
              <td data-label="File">{entry.fileName}</td>
              <td data-label="By">{entry.staffEmail}</td>
              <td data-label="Rows">{entry.rows}</td>
              <td data-label="Errors">{entry.errors}</td>
              <td data-label="Status">{entry.appliedAt ? `Applied ${formatDateTimeUtc(entry.appliedAt)}` : "Preview, not applied"}</td>
            </tr>
          ))}
        </StaffTable>
      )}
    </section>
  );
}

/** Who uploaded the file and when, its digest, and whether it was applied (`notApplied` says what that means here). */
export function ImportFacts({
  preview,
  notApplied,
}: {
  preview: { staffEmail: string; digest: string; createdAt: string | Date; appliedAt: string | Date | null; appliedBy: string | null };
  notApplied: string;
}) {
  return (
    <dl className="order-panel__meta" data-testid="import-facts">
      <dt>Uploaded</dt>
      <dd>
        {formatDateTimeUtc(preview.createdAt)} by {preview.staffEmail}
      </dd>
      <dt>File SHA-256</dt>
      <dd>
        <code>{preview.digest.slice(0, 16)}…</code>
      </dd>
      <dt>Status</dt>
      <dd data-testid="import-status">
        {preview.appliedAt
          ? `Applied on ${formatDateTimeUtc(preview.appliedAt)}${preview.appliedBy ? ` by ${preview.appliedBy}` : ""}`
          : notApplied}
      </dd>
    </dl>
  );
}

/** The rows that cannot be applied, numbered as in the spreadsheet; nothing when there are none. */
export function ImportErrors({ errors }: { errors: readonly StockImportError[] }): ReactNode {
  if (errors.length === 0) return null;
  return (
    <section aria-labelledby="errors-heading">
      <h2 id="errors-heading">Rows with errors</h2>
      <p className="notice notice--error" role="alert">
        Nothing can be applied while the file has errors. Correct these rows (numbered as in your spreadsheet) and upload the file again.
      </p>
      <StaffTable caption="Rows that cannot be applied" columns={["Row", "Problem"]} testId="import-errors">
        {errors.map((error, index) => (
          <tr key={`${error.row}-${index}`} data-testid="import-error">
            <th scope="row">{error.row}</th>
            <td data-label="Problem">{error.message}</td>
          </tr>
        ))}
      </StaffTable>
    </section>
  );
}

/** "3 products change" / "1 count changes": a number with its noun. */
export function countOf(value: number, one: string, many: string): string {
  return `${value.toLocaleString("en-US")} ${value === 1 ? one : many}`;
}
