import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTimeUtc, SiteLink } from "~/components/shared";
import { CsrfField } from "~/components/staff/CsrfField";
import { StaffMessage } from "~/components/staff/StaffMessage";
import { StaffPage } from "~/components/staff/StaffPage";
import { StaffTable } from "~/components/staff/StaffTable";
import { verifyCsrf } from "~/staff/csrf.server";
import { requireStaff } from "~/staff/guard.server";
import type { Flash } from "~/staff/session.server";
import { FORM_EXPIRED } from "~/staff/view";
import { MAX_ON_HAND, STOCK_IMPORT_MAX_ROWS, STOCK_REASON_MAX } from "~/stock/stock-import";
import { createImportPreview, IMPORT_MESSAGES, readStockImportForm, recentImports } from "~/stock/stock-import.server";
import { requirePost } from "~/utils/forms.server";

export const meta: MetaFunction = () => [{ title: "Import stock counts | Staff" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const imports = await recentImports(context.store.db);
  return data(
    { staffEmail: staff.staff.email, csrf: staff.csrf, flash: staff.flash, imports },
    { headers: { "Set-Cookie": await staff.commit() } },
  );
}

/**
 * The upload: the session first (nobody else's body is read), then the form within its limit, the CSRF
 * token, and the file, which becomes a preview (303 to it). Nothing changes any count here.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  const staff = await requireStaff(context.store, request);
  const reply = async (message: string, status: number) =>
    data<{ flash: Flash }>({ flash: { kind: "error", message } }, { status, headers: { "Set-Cookie": await staff.commit() } });

  const upload = await readStockImportForm(request, context.store.config);
  if (!upload.ok) return reply(upload.message, upload.status);
  if (!verifyCsrf(staff.csrf, upload.fields)) return reply(FORM_EXPIRED, 403);
  if (!upload.file) return reply(IMPORT_MESSAGES.noFile, 400);
  const preview = await createImportPreview(context.store.db, { staff: staff.staff, fileName: upload.file.name, bytes: upload.file.bytes });
  if (!preview.ok) return reply(preview.message, 400);
  return redirect(`/stock/import/${preview.id}`, { status: 303, headers: { "Set-Cookie": await staff.commit() } });
}

export default function StockImport() {
  const { staffEmail, csrf, flash, imports } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <StaffPage email={staffEmail} csrf={csrf}>
      <p>
        <SiteLink to="/stock">← All stock</SiteLink>
      </p>
      <h1>Import counts from a CSV file</h1>
      <StaffMessage message={actionData?.flash ?? flash} />
      <p>
        The file sets each product's on-hand count. Nothing changes when you upload it: you see every change first, and apply them all at
        once, or none.
      </p>
      <ul id="stock-file-rules">
        <li>
          A header row with the columns <code>product_key</code> and <code>on_hand</code>, and optionally <code>reason</code> (at most{" "}
          {STOCK_REASON_MAX} characters; without one, the movement says which file it came from). Other columns, like those of the{" "}
          <a href="/stock.csv" download>
            CSV download
          </a>
          , are ignored, and so are rows with an empty <code>on_hand</code>.
        </li>
        <li>
          Counts are whole numbers from 0 to {MAX_ON_HAND.toLocaleString("en-US")}, never fewer than checkouts paying now hold. Each product
          once; made-to-order products have no count.
        </li>
        <li>
          Saved as “CSV UTF-8 (comma delimited)”, at most 1 MB and {STOCK_IMPORT_MAX_ROWS.toLocaleString("en-US")} rows. Cells that start
          like a formula (=, +, -, @) are refused.
        </li>
      </ul>
      <Form method="post" action="/stock/import" encType="multipart/form-data" className="status-form">
        <CsrfField token={csrf} />
        <div className="field">
          <label htmlFor="stock-file">CSV file</label>
          <input id="stock-file" name="file" type="file" accept=".csv,text/csv" required aria-describedby="stock-file-rules" />
        </div>
        <button type="submit" className="button button--dark">
          Upload and preview
        </button>
      </Form>

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
                  <SiteLink to={`/stock/import/${entry.id}`}>{formatDateTimeUtc(entry.createdAt)}</SiteLink>
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
    </StaffPage>
  );
}
