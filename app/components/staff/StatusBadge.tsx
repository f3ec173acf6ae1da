import type { OrderStatus } from "~/orders/status";

const TONES: Partial<Record<OrderStatus, string>> = { Approved: "approved", Packed: "packed", Shipped: "shipped" };

/** Approved blue, Packed yellow, Shipped green, anything else grey; the text carries the meaning, not the color. */
export function StatusBadge({ status }: { status: string }) {
  const tone = TONES[status as OrderStatus] ?? "other";
  return <span className={`status-badge status-badge--${tone}`}>{status}</span>;
}
