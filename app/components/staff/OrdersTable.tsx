import { formatDate, formatUsd, SiteLink } from "~/components/shared";
import type { OrderRow } from "~/staff/dashboard.server";
import { StaffTable } from "./StaffTable";
import { StatusBadge } from "./StatusBadge";

/**
 * ID, Name, Email, Status, Total, Date. Each row opens the order's panel
 * through a plain link (the order is in the URL), so it works without script;
 * the link covers the whole row. On a phone each row is a small card whose
 * cells carry their column's name (data-label, staff.css).
 */
export function OrdersTable({
  rows,
  selectedId,
  hrefFor,
  caption,
}: {
  rows: OrderRow[];
  selectedId: string | null;
  hrefFor: (orderId: string) => string;
  caption: string;
}) {
  if (rows.length === 0) return <p className="staff-empty">No orders found.</p>;
  return (
    <StaffTable caption={caption} columns={["ID", "Name", "Email", "Status", "Total", "Date"]}>
      {rows.map((row) => {
        const selected = row.orderId === selectedId;
        return (
          <tr key={row.orderId} className={selected ? "is-selected" : undefined} data-testid="order-row" data-order-id={row.orderId}>
            <th scope="row">
              <SiteLink
                className="staff-table__open"
                to={hrefFor(row.orderId)}
                keepScroll
                aria-current={selected ? "true" : undefined}
                aria-label={`Order ${row.orderId}, ${row.name}`}
              >
                {row.orderId}
              </SiteLink>
            </th>
            <td data-label="Name">{row.name}</td>
            <td data-label="Email" className="staff-table__email">
              {row.email}
            </td>
            <td data-label="Status">
              <StatusBadge status={row.status} />
            </td>
            <td data-label="Total" className="staff-table__total" data-testid="order-total">
              {formatUsd(row.totalCents)}
            </td>
            <td data-label="Date">
              <time dateTime={row.createdAt.toISOString()}>{formatDate(row.createdAt)}</time>
            </td>
          </tr>
        );
      })}
    </StaffTable>
  );
}
