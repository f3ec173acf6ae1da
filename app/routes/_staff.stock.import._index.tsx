import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SiteLink } from "~/components/shared";
import { CsvUploadForm, RecentImports } from "~/components/staff/CsvImportParts";
import { StaffMessage } from "~/components/staff/StaffMessage";
import { StaffPage } from "~/components/staff/StaffPage";
import { verifyCsrf } from "~/staff/csrf.server";
import { requireStaff } from "~/staff/guard.server";
import type { Flash } from "~/staff/session.server";
import { FORM_EXPIRED } from "~/staff/view";
import { MAX_ON_HAND, STOCK_REASON_MAX } from "~/stock/stock-import";
import { CSV_UPLOAD_MAX_ROWS } from "~/utils/csv-upload";
import { createImportPreview, recentImports } from "~/stock/stock-import.server";
import { CSV_UPLOAD_MESSAGES, readCsvUploadForm } from "~/utils/csv-upload.server";
import { requirePost } from "~/utils/forms.server";

export const meta: MetaFunction = () => [{ title: "Import stock counts | Staff" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const imports = await recentImports(context.store.db);
  return data(
    { staffEmail: staff.staff.email, staffRole: staff.staff.role, csrf: staff.csrf, flash: staff.flash, imports },
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

  const upload = await readCsvUploadForm(request, context.store.config, "stock.csv");
  if (!upload.ok) return reply(upload.message, upload.status);
  if (!verifyCsrf(staff.csrf, upload.fields)) return reply(FORM_EXPIRED, 403);
  if (!upload.file) return reply(CSV_UPLOAD_MESSAGES.noFile, 400);
  const preview = await createImportPreview(context.store.db, { staff: staff.staff, fileName: upload.file.name, bytes: upload.file.bytes });
  if (!preview.ok) return reply(preview.message, 400);
  return redirect(`/stock/import/${preview.id}`, { status: 303, headers: { "Set-Cookie": await staff.commit() } });
}

export default function StockImport() {
  const { staffEmail, staffRole, csrf, flash, imports } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <StaffPage email={staffEmail} role={staffRole} csrf={csrf}>
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
          Saved as “CSV UTF-8 (comma delimited)”, at most 1 MB and {CSV_UPLOAD_MAX_ROWS.toLocaleString("en-US")} rows. Cells that start like
          a formula (=, +, -, @) are refused.
        </li>
      </ul>
      <CsvUploadForm action="/stock/import" csrf={csrf} inputId="stock-file" rulesId="stock-file-rules" />
      <RecentImports imports={imports} basePath="/stock/import" />
    </StaffPage>
  );
}
