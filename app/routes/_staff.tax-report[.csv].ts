import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/staff/guard.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";
import { parseReportRange, taxReport, taxReportCsv } from "~/tax/tax-report.server";

/** The sales tax report's months as a CSV download, for staff only (others are sent to sign in). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const range = parseReportRange(new URL(request.url).searchParams);
  const cookie = await staff.commit();
  if (!range.ok) {
    return new Response(`${range.message}\n`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Set-Cookie": cookie },
    });
  }
  const csv = taxReportCsv(await taxReport(context.store.db, range));
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="sales-tax-${range.from}-to-${range.to}.csv"`,
      "Cache-Control": "private, no-store",
      "Set-Cookie": cookie,
    },
  });
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
