import type { ReactNode } from "react";

/**
 * The carousel as the server renders it: a horizontally scrollable row with
 * CSS scroll-snap, usable without script and keyboard-scrollable (the row is a
 * focusable region).
 */
export function ScrollRow({ label, items, keys }: { label: string; items: ReactNode[]; keys: string[] }) {
  return (
    <div className="carousel__viewport" role="region" aria-roledescription="carousel" aria-label={label} tabIndex={0}>
      <ul className="carousel__track" aria-label={label}>
        {items.map((item, index) => (
          <li key={keys[index]} className="carousel__slide" aria-label={`${index + 1} of ${items.length}`}>
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
}
