import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { SiteLink } from "~/components/shared";
import { CsrfField } from "~/components/staff/CsrfField";
import { countOf, ImportErrors, ImportFacts } from "~/components/staff/CsvImportParts";
import { StaffMessage } from "~/components/staff/StaffMessage";
import { StaffPage } from "~/components/staff/StaffPage";
import { StaffTable } from "~/components/staff/StaffTable";
import { catalogProductHref } from "~/catalog/desk/catalog-desk";
import { catalogImportSummary } from "~/catalog/desk/catalog-csv";
import { applyCatalogImport, applyCatalogImportForm, catalogImportPreview } from "~/catalog/desk/catalog-import.server";
import { describeDeskValue, DESK_FIELD_LABELS, type DeskField } from "~/catalog/desk/desk-values";
import { verifyCsrf } from "~/staff/csrf.server";
import { requireOwner, requireStaff } from "~/staff/guard.server";
import type { Flash } from "~/staff/session.server";
import { FORM_EXPIRED } from "~/staff/view";
import { parseForm, readForm, requirePost } from "~/utils/forms.server";

export const meta: MetaFunction = () => [{ title: "Catalogue import preview | Staff" }];

/** An owner's page (app/staff/roles.ts): a staff account gets the refusal and 403, and no preview. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const page = { staffEmail: staff.staff.email, staffRole: staff.staff.role, csrf: staff.csrf, flash: staff.flash };
  const headers = { "Set-Cookie": await staff.commit() };
  const refused = requireOwner(staff, "catalogImport");
  if (refused) return data({ ...page, refused: refused.message, preview: null }, { status: refused.status, headers });
  const found = await catalogImportPreview(context.store.db, params.id ?? "");
  if (!found) throw new Response("There is no such import. Upload the file again.", { status: 404 });
  const rows = [...found.rows].sort((a, b) => a.row - b.row);
  const preview = {
    id: found.id,
    fileName: found.fileName,
    staffEmail: found.staffEmail,
    digest: found.digest,
    createdAt: found.createdAt,
    appliedAt: found.appliedAt,
    appliedBy: found.appliedBy,
    summary: catalogImportSummary(rows),
    changes: rows.filter((row) => row.changes.length > 0),
    errors: [...found.errors].sort((a, b) => a.row - b.row),
  };
  return data({ ...page, refused: null, preview }, { headers });
}

/**
 * Apply: the session, the owner's role (403 before the body is read), the CSRF token, then the whole import
 * in one transaction, once (catalog-import.server.ts). A success redirects back here (303) with its message;
 * a refusal is this page again with its message (404, 409: applied already, errors, nothing to change, or
 * products changed since the preview).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  const staff = await requireStaff(context.store, request);
  const id = (params.id ?? "").slice(0, 40);
  const reply = async (flash: Flash, status: number) =>
    data<{ flash: Flash }>({ flash }, { status, headers: { "Set-Cookie": await staff.commit() } });

  const refused = requireOwner(staff, "catalogImport");
  if (refused) return reply({ kind: "error", message: refused.message }, refused.status);
  const form = await readForm(request, context.store.config);
  if (!verifyCsrf(staff.csrf, form)) return reply({ kind: "error", message: FORM_EXPIRED }, 403);
  const parsed = parseForm(applyCatalogImportForm, form);
  if (!parsed.ok) return reply({ kind: "error", message: "Please use the Apply button on this page." }, 400);
  const outcome = await applyCatalogImport(context.store.db, { id, actor: staff.staff.email });
  if (!outcome.ok) return reply({ kind: "error", message: outcome.message }, outcome.status);
  await staff.setFlash({ kind: "success", message: outcome.message });
  return redirect(`/catalog/import/${id.toLowerCase()}`, { status: 303, headers: { "Set-Cookie": await staff.commit() } });
}

export default function CatalogImportPreview() {
  const { staffEmail, staffRole, csrf, flash, refused, preview } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const message = refused ? ({ kind: "error", message: refused } as const) : (actionData?.flash ?? flash);
  return (
    <StaffPage email={staffEmail} role={staffRole} csrf={csrf}>
      <p>
        <SiteLink to="/catalog/import">← Import another file</SiteLink>
      </p>
      <h1>Catalogue import preview{preview ? `: ${preview.fileName}` : ""}</h1>
      <StaffMessage message={message} />
      {preview ? <PreviewBody preview={preview} csrf={csrf} /> : null}
    </StaffPage>
  );
}

type Preview = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["preview"]>;

function PreviewBody({ preview, csrf }: { preview: Preview; csrf: string }) {
  const { summary, changes, errors } = preview;
  const canApply = !preview.appliedAt && errors.length === 0 && summary.products > 0;
  return (
    <>
      <ImportFacts preview={preview} notApplied="Not applied: no product has changed yet" />
      <p data-testid="import-summary">{summaryText(summary, errors.length)}</p>
      <ImportErrors errors={errors} />

      <section aria-labelledby="changes-heading">
        <h2 id="changes-heading">Changes</h2>
        {changes.length === 0 ? (
          <p className="staff-empty">No product changes.</p>
        ) : (
          <StaffTable
            caption="Every value the file changes, in file order"
            columns={["Row", "Product", "Field", "Now", "After"]}
            testId="import-changes"
          >
            {changes.flatMap((row) =>
              row.changes.map((change, index) => (
                <tr key={`${row.row}-${change.field}`} data-testid="import-change">
                  <th scope="row">{index === 0 ? row.row : ""}</th>
                  <td data-label="Product">
                    {index === 0 ? (
                      <>
                        <SiteLink to={catalogProductHref(row.productKey)}>{row.title}</SiteLink>
                        <br />
                        <span className="staff-muted">{row.productKey}</span>
                      </>
                    ) : null}
                  </td>
                  <td data-label="Field">{DESK_FIELD_LABELS[change.field as DeskField] ?? change.field}</td>
                  <td data-label="Now">{describeDeskValue(change.field, change.before)}</td>
                  <td data-label="After">{describeDeskValue(change.field, change.after)}</td>
                </tr>
              )),
            )}
          </StaffTable>
        )}
      </section>

      {canApply ? (
        <Form method="post" action={`/catalog/import/${preview.id}`} className="status-form" data-testid="apply-form">
          <CsrfField token={csrf} />
          <input type="hidden" name="intent" value="apply" />
          <p>
            Applying changes every value above in one go, each in its product's history, and every store page shows it at once. If any of
            these products has changed since this preview, nothing is applied and you are told which.
          </p>
          <button type="submit" className="button button--dark">
            {`Apply ${countOf(summary.products, "product's changes", "products' changes")}`}
          </button>
        </Form>
      ) : null}
    </>
  );
}

/** "2 products change (3 values); 1 row is already the product's values; 3 rows have errors." */
function summaryText(summary: { products: number; unchanged: number; fields: number }, errors: number): string {
  const parts = [`${countOf(summary.products, "product changes", "products change")} (${countOf(summary.fields, "value", "values")})`];
  if (summary.unchanged > 0) parts.push(`${countOf(summary.unchanged, "row is", "rows are")} already the product's values`);
  if (errors > 0) parts.push(`${countOf(errors, "row has an error", "rows have errors")}`);
  return `${parts.join("; ")}.`;
}
