import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SiteLink } from "~/components/shared";
import { CsvUploadForm, RecentImports } from "~/components/staff/CsvImportParts";
import { StaffMessage } from "~/components/staff/StaffMessage";
import { StaffPage } from "~/components/staff/StaffPage";
import { CATALOG_CSV_HEADER } from "~/catalog/desk/catalog-csv";
import { createCatalogImportPreview, recentCatalogImports } from "~/catalog/desk/catalog-import.server";
import { verifyCsrf } from "~/staff/csrf.server";
import { requireOwner, requireStaff } from "~/staff/guard.server";
import type { Flash } from "~/staff/session.server";
import { FORM_EXPIRED } from "~/staff/view";
import { CSV_UPLOAD_MAX_ROWS } from "~/utils/csv-upload";
import { CSV_UPLOAD_MESSAGES, readCsvUploadForm } from "~/utils/csv-upload.server";
import { requirePost } from "~/utils/forms.server";

export const meta: MetaFunction = () => [{ title: "Import prices and flags | Staff" }];

/** The upload page is an owner's (app/staff/roles.ts): a staff account gets it with the refusal and 403. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const refused = requireOwner(staff, "catalogImport");
  const page = { staffEmail: staff.staff.email, staffRole: staff.staff.role, csrf: staff.csrf, flash: staff.flash };
  const headers = { "Set-Cookie": await staff.commit() };
  if (refused) return data({ ...page, refused: refused.message, imports: [] }, { status: refused.status, headers });
  return data({ ...page, refused: null, imports: await recentCatalogImports(context.store.db) }, { headers });
}

/**
 * The upload: the session first, the owner's role (a staff account's body is not read: 403), then the form
 * within its limit, the CSRF token, and the file, which becomes a preview (303 to it). Nothing changes here.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  const staff = await requireStaff(context.store, request);
  const reply = async (message: string, status: number) =>
    data<{ flash: Flash }>({ flash: { kind: "error", message } }, { status, headers: { "Set-Cookie": await staff.commit() } });

  const refused = requireOwner(staff, "catalogImport");
  if (refused) return reply(refused.message, refused.status);
  const upload = await readCsvUploadForm(request, context.store.config, "catalogue.csv");
  if (!upload.ok) return reply(upload.message, upload.status);
  if (!verifyCsrf(staff.csrf, upload.fields)) return reply(FORM_EXPIRED, 403);
  if (!upload.file) return reply(CSV_UPLOAD_MESSAGES.noFile, 400);
  const preview = await createCatalogImportPreview(context.store.db, {
    staff: staff.staff,
    fileName: upload.file.name,
    bytes: upload.file.bytes,
  });
  if (!preview.ok) return reply(preview.message, 400);
  return redirect(`/catalog/import/${preview.id}`, { status: 303, headers: { "Set-Cookie": await staff.commit() } });
}

export default function CatalogImport() {
  const { staffEmail, staffRole, csrf, flash, refused, imports } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <StaffPage email={staffEmail} role={staffRole} csrf={csrf}>
      <p>
        <SiteLink to="/catalog">← Catalogue</SiteLink>
      </p>
      <h1>Import prices and flags from a CSV file</h1>
      <StaffMessage message={refused ? { kind: "error", message: refused } : (actionData?.flash ?? flash)} />
      {refused ? null : (
        <>
          <p>
            Download the prices of a brand or a category from the <SiteLink to="/catalog">catalogue</SiteLink>, change them in a
            spreadsheet, and upload the file here. Nothing changes when you upload it: you see every change first, and apply them all at
            once, or none. Each change is kept in its product's history.
          </p>
          <ul id="catalog-file-rules">
            <li>
              A header row with <code>product_key</code> and any of <code>{CATALOG_CSV_HEADER.slice(4).join(", ")}</code>. Only the columns
              in the file change; <code>brand</code>, <code>model</code>, <code>title</code> and other columns are ignored.
            </li>
            <li>
              Prices in dollars with cents, like <code>1299.00</code>; an empty compare-at or sale price removes it. Sale dates in UTC, like{" "}
              <code>2026-12-24 09:00</code>. A sale price is below the price and a sale ends after it starts. Flags are <code>yes</code> or{" "}
              <code>no</code>.
            </li>
            <li>
              Saved as “CSV UTF-8 (comma delimited)”, at most 1 MB and {CSV_UPLOAD_MAX_ROWS.toLocaleString("en-US")} rows, each product
              once. Cells that start like a formula (=, +, -, @) are refused. One bad row refuses the whole file.
            </li>
          </ul>
          <CsvUploadForm action="/catalog/import" csrf={csrf} inputId="catalog-file" rulesId="catalog-file-rules" />
          <RecentImports imports={imports} basePath="/catalog/import" />
        </>
      )}
    </StaffPage>
  );
}
