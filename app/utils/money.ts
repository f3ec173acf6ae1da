/**
 * The store counts money in integer cents everywhere; dollars exist only where money crosses a boundary
 * (a provider's API, the catalogue's files, a form a person types in, a CSV). These are the only
 * conversions, each exact: strings are read digit by digit so no binary fraction ever creeps in.
 */

/**
 * An amount a provider or a file writes in dollars ("10.85", 10.85, "7") as integer cents, rounding half
 * up past the cent; null for anything that is not a non-negative number.
 */
export function centsOfDecimal(value: unknown): number | null {
  if (typeof value === "number") {
    return Number.isFinite(value) && value >= 0 ? Math.round(value * 100) : null;
  }
  if (typeof value !== "string") return null;
  const match = /^(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!match?.[1]) return null;
  const thousandths = Number((match[2] ?? "").padEnd(3, "0").slice(0, 3));
  const cents = Number(match[1]) * 100 + Math.round(thousandths / 10);
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Integer cents as a provider's or a file's decimal dollars: 129900 → "1299.00", -250 → "-2.50". */
export function decimalOfCents(cents: number): string {
  const whole = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, "0")}`;
}

/**
 * Dollars as a person types them ("1299", "1,299.00", "$1,299.5") as integer cents: at most two digits
 * after the point, commas only between groups of three; null for anything else (a negative amount too).
 */
export function centsOfTypedDollars(text: string): number | null {
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{0,2}))?$/.exec(text.trim().replace(/^\$/, ""));
  if (!match) return null;
  const cents = Number(match[1]!.replaceAll(",", "")) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}
