import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { SiteLink } from "~/components/shared";
import { CsrfField } from "~/components/staff/CsrfField";
import { countOf, ImportErrors, ImportFacts } from "~/components/staff/CsvImportParts";
import { StaffMessage } from "~/components/staff/StaffMessage";
import { StaffPage } from "~/components/staff/StaffPage";
import { StaffTable } from "~/components/staff/StaffTable";
import { verifyCsrf } from "~/staff/csrf.server";
import { requireStaff } from "~/staff/guard.server";
import type { Flash } from "~/staff/session.server";
import { FORM_EXPIRED } from "~/staff/view";
import { stockProductHref } from "~/stock/stock-desk";
import { importSummary } from "~/stock/stock-import";
import { applyImport, applyImportForm, importPreview } from "~/stock/stock-import.server";
import { parseForm, readForm, requirePost } from "~/utils/forms.server";

export const meta: MetaFunction = () => [{ title: "Stock import preview | Staff" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const found = await importPreview(context.store.db, params.id ?? "");
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
    summary: importSummary(rows),
    changes: rows.filter((row) => row.after !== row.before),
    errors: [...found.errors].sort((a, b) => a.row - b.row),
  };
  return data(
    { staffEmail: staff.staff.email, staffRole: staff.staff.role, csrf: staff.csrf, flash: staff.flash, preview },
    { headers: { "Set-Cookie": await staff.commit() } },
  );
}

/**
 * Apply: the session, the CSRF token, then the whole import in one transaction, once (stock-import.server.ts).
 * A success redirects back here (303) with its message in the session; a refusal is this page again with
 * its message (404, 409: applied already, errors, nothing to change, or counts that moved since the preview).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  const staff = await requireStaff(context.store, request);
  const id = (params.id ?? "").slice(0, 40);
  const reply = async (flash: Flash, status: number) =>
    data<{ flash: Flash }>({ flash }, { status, headers: { "Set-Cookie": await staff.commit() } });

  const form = await readForm(request, context.store.config);
  if (!verifyCsrf(staff.csrf, form)) return reply({ kind: "error", message: FORM_EXPIRED }, 403);
  const parsed = parseForm(applyImportForm, form);
  if (!parsed.ok) return reply({ kind: "error", message: "Please use the Apply button on this page." }, 400);
  const outcome = await applyImport(context.store, { id, actor: staff.staff.email });
  if (!outcome.ok) return reply({ kind: "error", message: outcome.message }, outcome.status);
  await staff.setFlash({ kind: "success", message: outcome.message });
  return redirect(`/stock/import/${id.toLowerCase()}`, { status: 303, headers: { "Set-Cookie": await staff.commit() } });
}

export default function StockImportPreview() {
  const { staffEmail, staffRole, csrf, flash, preview } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { summary, changes, errors } = preview;
  const canApply = !preview.appliedAt && errors.length === 0 && summary.changes > 0;
  return (
    <StaffPage email={staffEmail} role={staffRole} csrf={csrf}>
      <p>
        <SiteLink to="/stock/import">← Import another file</SiteLink>
      </p>
      <h1>Import preview: {preview.fileName}</h1>
      <StaffMessage message={actionData?.flash ?? flash} />
      <ImportFacts preview={preview} notApplied="Not applied: no count has changed yet" />
      <p data-testid="import-summary">{summaryText(summary, errors.length)}</p>
      <ImportErrors errors={errors} />

      <section aria-labelledby="changes-heading">
        <h2 id="changes-heading">Changes</h2>
        {changes.length === 0 ? (
          <p className="staff-empty">No count changes.</p>
        ) : (
          <StaffTable
            caption="Every count the file changes, in file order"
            columns={["Row", "Product", "On hand now", "After", "Change", "Reason"]}
            testId="import-changes"
          >
            {changes.map((change) => (
              <tr key={change.row} data-testid="import-change">
                <th scope="row">{change.row}</th>
                <td data-label="Product">
                  <SiteLink to={stockProductHref(change.productKey)}>{change.title}</SiteLink>
                  <br />
                  <span className="staff-muted">{change.productKey}</span>
                </td>
                <td data-label="On hand now">{change.before}</td>
                <td data-label="After">{change.after}</td>
                <td data-label="Change">
                  {change.after > change.before ? `+${change.after - change.before}` : `−${change.before - change.after}`}
                </td>
                <td data-label="Reason">{change.reason}</td>
              </tr>
            ))}
          </StaffTable>
        )}
      </section>

      {canApply ? (
        <Form method="post" action={`/stock/import/${preview.id}`} className="status-form" data-testid="apply-form">
          <CsrfField token={csrf} />
          <input type="hidden" name="intent" value="apply" />
          <p>
            Applying sets every count above in one go, each with a movement. If any of these products' counts has changed since this
            preview, nothing is applied and you are told which.
          </p>
          <button type="submit" className="button button--dark">
            {`Apply ${countOf(summary.changes, "change", "changes")}`}
          </button>
        </Form>
      ) : null}
    </StaffPage>
  );
}

/** "2 counts change (+8 units, −10 units); 1 row is already the count now; 3 rows have errors." */
function summaryText(summary: { changes: number; unchanged: number; added: number; removed: number }, errors: number): string {
  const parts = [
    `${countOf(summary.changes, "count changes", "counts change")} (+${countOf(summary.added, "unit", "units")}, −${countOf(summary.removed, "unit", "units")})`,
  ];
  if (summary.unchanged > 0) parts.push(`${countOf(summary.unchanged, "row is", "rows are")} already the count now`);
  if (errors > 0) parts.push(`${countOf(errors, "row has an error", "rows have errors")}`);
  return `${parts.join("; ")}.`;
}
