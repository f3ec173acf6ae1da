/**
 * A provider's dollar amount ("10.85", 10.85, "7") as integer cents, rounding half up past
 * the cent; null for anything that is not a non-negative number. Strings are parsed digit
 * by digit so no binary fraction ever creeps in.
 */
export function dollarsToCents(value: unknown): number | null {
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
