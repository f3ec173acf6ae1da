export interface DashboardState {
  q: string;
  page: number;
  order: string | null;
}

/** /dashboard with the search, page and open order kept in the URL (so a panel can be shared). */
export function dashboardHref({ q, page, order }: Partial<DashboardState>): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (page && page > 1) params.set("page", String(page));
  if (order) params.set("order", order);
  const search = params.toString();
  return search ? `/dashboard?${search}` : "/dashboard";
}

export const STATUS_UPDATED = "Status updated successfully.";
export const STATUS_FAILED = "Failed to update status.";
/** A cancelled order whose payment was given back cannot be revived (its money is gone). */
export const STATUS_REFUNDED = "This order's payment was refunded, so it stays Cancelled.";
export const STATUS_TEST_CANCELLED = "This test order's sales tax was given back when it was cancelled, so it stays Cancelled.";
export const STATUS_UNEXPECTED = "An unexpected error occurred.";
export const FORM_EXPIRED = "This form has expired. Please reload the page and try again.";
