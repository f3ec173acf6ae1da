import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { formatUsd, SiteLink } from "~/components/shared";
import { StaffPage } from "~/components/staff/StaffPage";
import { requireStaff } from "~/staff/guard.server";
import { parseReportRange, taxReport } from "~/tax/tax-report.server";

export const meta: MetaFunction = () => [{ title: "Sales tax report | Staff" }];

/** /tax-report?from=YYYY-MM&to=YYYY-MM: a GET form, so a report is a link; the same months download as CSV. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const query = new URL(request.url).searchParams;
  const range = parseReportRange(query);
  const headers = { "Set-Cookie": await staff.commit() };
  const page = {
    staffEmail: staff.staff.email,
    staffRole: staff.staff.role,
    csrf: staff.csrf,
    from: query.get("from") ?? "",
    to: query.get("to") ?? "",
  };
  if (!range.ok) return data({ ...page, error: range.message, report: null }, { status: 400, headers });
  const report = await taxReport(context.store.db, range);
  return data({ ...page, from: range.from, to: range.to, error: null, report }, { headers });
}

export default function TaxReportPage() {
  const { staffEmail, staffRole, csrf, from, to, error, report } = useLoaderData<typeof loader>();
  const csvHref = `/tax-report.csv?${new URLSearchParams({ from, to })}`;
  return (
    <StaffPage email={staffEmail} role={staffRole} csrf={csrf}>
      <p>
        <SiteLink to="/dashboard">← Orders dashboard</SiteLink>
      </p>
      <h1>Sales tax report</h1>
      <p>
        Per state the orders ship to and per month (UTC): tax collected on the orders placed that month, tax given back by the refunds made
        that month, and the net to remit. Orders to states where the store collects no tax are listed with their sales.
      </p>
      <Form method="get" className="staff-search">
        <label htmlFor="report-from">From month</label>
        <input id="report-from" name="from" type="month" defaultValue={from} aria-describedby={error ? "report-error" : undefined} />
        <label htmlFor="report-to">To month</label>
        <input id="report-to" name="to" type="month" defaultValue={to} aria-describedby={error ? "report-error" : undefined} />
        <button type="submit" className="button button--small button--dark">
          Show
        </button>
      </Form>
      {error ? (
        <p id="report-error" className="notice notice--error" role="alert">
          {error}
        </p>
      ) : null}
      {report ? (
        <>
          <p>
            <a href={csvHref} download>
              Download as CSV ({report.from} to {report.to})
            </a>
          </p>
          {report.rows.length === 0 ? (
            <p className="staff-empty">No orders and no refunds in these months.</p>
          ) : (
            <table className="staff-table" data-testid="tax-report">
              <caption>
                Sales tax, {report.from} to {report.to}
              </caption>
              <thead>
                <tr>
                  <th scope="col">State</th>
                  <th scope="col">Month</th>
                  <th scope="col">Orders</th>
                  <th scope="col">Taxable sales</th>
                  <th scope="col">Tax collected</th>
                  <th scope="col">Tax refunded</th>
                  <th scope="col">Net tax</th>
                </tr>
              </thead>
              <tbody>
                {report.rows.map((row) => (
                  <tr key={`${row.state}-${row.month}`}>
                    <th scope="row">{row.state}</th>
                    <td>{row.month}</td>
                    <td>{row.orders}</td>
                    <td>{formatUsd(row.salesCents)}</td>
                    <td>{formatUsd(row.collectedCents)}</td>
                    <td>{formatUsd(row.refundedCents)}</td>
                    <td>{formatUsd(row.netCents)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={2}>
                    All states
                  </th>
                  <td>{report.totals.orders}</td>
                  <td>{formatUsd(report.totals.salesCents)}</td>
                  <td data-testid="report-collected">{formatUsd(report.totals.collectedCents)}</td>
                  <td data-testid="report-refunded">{formatUsd(report.totals.refundedCents)}</td>
                  <td data-testid="report-net">{formatUsd(report.totals.netCents)}</td>
                </tr>
              </tfoot>
            </table>
          )}
        </>
      ) : null}
    </StaffPage>
  );
}
