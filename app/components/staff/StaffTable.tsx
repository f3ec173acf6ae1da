import type { ReactNode } from "react";

/**
 * The staff pages' one table: a scrollable region a keyboard can reach (a phone shows each row as a card,
 * its cells labelled with data-label in staff.css), the caption for screen readers, a header row of
 * `columns`, and the rows the page renders.
 */
export function StaffTable({
  caption,
  columns,
  testId,
  children,
}: {
  caption: string;
  columns: readonly string[];
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className="staff-table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table className="staff-table" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
