import type { DashboardTiles as Tiles } from "~/staff/dashboard.server";
import { formatNumber } from "~/utils/number-format";

const TILES: Array<{ key: keyof Tiles; label: string }> = [
  { key: "total", label: "Total Orders" },
  { key: "approved", label: "Approved" },
  { key: "packed", label: "Packed" },
  { key: "shipped", label: "Shipped" },
  { key: "test", label: "Test orders (no money moved)" },
];

/** Total Orders counts every order (Cancelled ones only there); the others count their status; test-page orders are also counted apart. */
export function DashboardTiles({ tiles }: { tiles: Tiles }) {
  return (
    <ul className="staff-tiles" aria-label="Order counts">
      {TILES.map(({ key, label }) => (
        <li key={key} className={`staff-tile staff-tile--${key}`}>
          <span className="staff-tile__label">{label}</span>
          <span className="staff-tile__value" data-testid={`tile-${key}`}>
            {formatNumber(tiles[key])}
          </span>
        </li>
      ))}
    </ul>
  );
}
