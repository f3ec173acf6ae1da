import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDate, SiteLink } from "~/components/shared";
import { StaffPage } from "~/components/staff/StaffPage";
import { StaffMessage } from "~/components/staff/StaffMessage";
import { StaffTable } from "~/components/staff/StaffTable";
import { requireStaff } from "~/staff/guard.server";
import { listDeskRequests, parseDeskStatus, type DeskRow } from "~/staff/returns-desk.server";
import { DESK_STATUSES, parseDeskPage, returnsDeskHref, type DeskStatus } from "~/staff/returns-desk";

export const meta: MetaFunction = () => [{ title: "Returns desk | Staff" }];

/** The returns desk's list: open requests (oldest first), then recent closed ones; ?status= shows one status. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const query = new URL(request.url).searchParams;
  const status = parseDeskStatus(query.get("status"));
  const page = status ? parseDeskPage(query.get("page")) : 1;
  const lists = await listDeskRequests(context.store.db, status, page);
  return data(
    {
      staffEmail: staff.staff.email,
      staffRole: staff.staff.role,
      csrf: staff.csrf,
      flash: staff.flash,
      status,
      page,
      ...lists,
      now: new Date().toISOString(),
    },
    { headers: { "Set-Cookie": await staff.commit() } },
  );
}

export default function ReturnsDesk() {
  const { staffEmail, staffRole, csrf, flash, status, page, open, closed, hasMore, now } = useLoaderData<typeof loader>();
  return (
    <StaffPage email={staffEmail} role={staffRole} csrf={csrf}>
      <p>
        <SiteLink to="/dashboard">← Orders dashboard</SiteLink>
      </p>
      <h1>Returns desk</h1>
      <StaffMessage message={flash} />
      <nav aria-label="Filter by status" className="staff-pager">
        <ul className="returns-filter">
          <li>
            <SiteLink to={returnsDeskHref(null)} aria-current={status === null ? "page" : undefined}>
              All
            </SiteLink>
          </li>
          {DESK_STATUSES.map((value) => (
            <li key={value}>
              <SiteLink to={returnsDeskHref(value)} aria-current={status === value ? "page" : undefined}>
                {value[0]!.toUpperCase() + value.slice(1)}
              </SiteLink>
            </li>
          ))}
        </ul>
      </nav>
      {status === null || open.length > 0 ? (
        <section aria-labelledby="open-heading">
          <h2 id="open-heading">Open requests</h2>
          <RequestsTable rows={open} now={now} caption="Open returns and defect claims, oldest first" empty="No open request." />
        </section>
      ) : null}
      {status === null || closed.length > 0 ? (
        <section aria-labelledby="closed-heading">
          <h2 id="closed-heading">Recently closed</h2>
          <RequestsTable rows={closed} now={now} caption="Closed requests, most recent first" empty="No closed request." />
        </section>
      ) : null}
      {status !== null && open.length === 0 && closed.length === 0 ? <p className="staff-empty">No request is {status}.</p> : null}
      <DeskPages status={status} page={page} hasMore={hasMore} />
    </StaffPage>
  );
}

/** Past a status's first page, or when the whole desk shows only the first of its requests: plain links on. */
function DeskPages({ status, page, hasMore }: { status: DeskStatus | null; page: number; hasMore: boolean }) {
  if (status === null) {
    return hasMore ? (
      <p className="staff-empty">
        Only the oldest open and the most recent closed requests are shown: choose a status above to see them all.
      </p>
    ) : null;
  }
  if (page === 1 && !hasMore) return null;
  return (
    <nav className="staff-pager" aria-label="Pages of requests">
      {page > 1 ? (
        <SiteLink to={returnsDeskHref(status, page - 1)} rel="prev">
          ← Previous page
        </SiteLink>
      ) : (
        <span />
      )}
      <span>Page {page}</span>
      {hasMore ? (
        <SiteLink to={returnsDeskHref(status, page + 1)} rel="next">
          Next page →
        </SiteLink>
      ) : (
        <span />
      )}
    </nav>
  );
}

function age(createdAt: Date | string, now: string): string {
  const days = Math.floor((Date.parse(now) - new Date(createdAt).getTime()) / 86_400_000);
  return days <= 0 ? "today" : days === 1 ? "1 day" : `${days} days`;
}

function RequestsTable({
  rows,
  now,
  caption,
  empty,
}: {
  rows: (Omit<DeskRow, "createdAt"> & { createdAt: Date | string })[];
  now: string;
  caption: string;
  empty: string;
}) {
  if (rows.length === 0) return <p className="staff-empty">{empty}</p>;
  return (
    <StaffTable caption={caption} columns={["Number", "Kind", "Order", "Customer", "Reason", "Status", "Age"]} testId="returns-table">
      {rows.map((row) => (
        <tr key={row.number} data-testid="returns-row">
          <th scope="row">
            <SiteLink to={`/returns/${row.number}`}>{row.number}</SiteLink>
          </th>
          <td>{row.kind === "return" ? "Return" : "Defect claim"}</td>
          <td>{row.orderId}</td>
          <td>{row.customerName}</td>
          <td>{row.reason}</td>
          <td>{row.status}</td>
          <td>
            <time dateTime={new Date(row.createdAt).toISOString()} title={formatDate(row.createdAt)}>
              {age(row.createdAt, now)}
            </time>
          </td>
        </tr>
      ))}
    </StaffTable>
  );
}
