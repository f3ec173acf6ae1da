/** What counts as the shopper's first interaction with the page (not "scroll": a scroll-snap row scrolls itself into place). */
export const INTERACTIONS = ["pointerdown", "pointermove", "touchstart", "keydown", "wheel"] as const;

let interacted = false;

/**
 * Whether the shopper has interacted with the page yet. Noted from the page's first script on
 * (this module loads with it), so a carousel whose own script loads later still knows.
 */
export function hasInteracted(): boolean {
  return interacted;
}

if (typeof window !== "undefined") {
  const note = () => {
    interacted = true;
    for (const type of INTERACTIONS) window.removeEventListener(type, note, { capture: true });
  };
  for (const type of INTERACTIONS) window.addEventListener(type, note, { passive: true, capture: true });
}
