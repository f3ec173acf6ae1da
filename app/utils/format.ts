/** Formatting rules of the spec: USD in US English, long-month dates, (xxx) xxx-xxxx phones. */

/**
 * Made on first use, not when the module loads: every page's script imports this module, and
 * building the date formatters (time-zone data) cost a phone's main thread about 400 ms before
 * the page could respond, on pages that show no date.
 */
function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const longDateOptions: Intl.DateTimeFormatOptions = { month: "long", day: "2-digit", year: "numeric" };
const longDate = onFirstUse(() => new Intl.DateTimeFormat("en-US", { ...longDateOptions, timeZone: "UTC" }));

/**
 * "$2,499.99", "-$5.00": what Intl.NumberFormat's en-US USD currency format writes (format.test.ts;
 * fractional cents round half away from zero), written out: a browser's first Intl number format loads its locale data, 40-80 ms of
 * a fast computer's main thread (four times that on a slow phone) in the middle of hydrating the first
 * price on the page.
 */
export function formatUsd(cents: number): string {
  const rounded = Math.round(Math.abs(cents));
  const dollars = groupThousands(String(Math.floor(rounded / 100)));
  return `${isNegative(cents) ? "-" : ""}$${dollars}.${String(rounded % 100).padStart(2, "0")}`;
}

/** "1234567" as "1,234,567": a comma between each group of three digits, from the right. */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ",");
}

/** Intl writes a minus for every negative number, -0 and what rounds to 0 included. */
export function isNegative(value: number): boolean {
  return value < 0 || Object.is(value, -0);
}

/** Like formatUsd, but refuses fractional cents: for amounts that must already be exact (emails, receipts). */
export function formatUsdStrict(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`Money must be integer cents, got ${cents}`);
  return formatUsd(cents);
}

/** "November 05, 2026" */
export function formatDate(date: Date | string): string {
  return longDate().format(typeof date === "string" ? new Date(date) : date);
}

/** The same long date in a given time zone (UTC unless the caller knows better). */
export function formatLongDate(date: Date | string, timeZone = "UTC"): string {
  if (timeZone === "UTC") return formatDate(date);
  return new Intl.DateTimeFormat("en-US", { ...longDateOptions, timeZone }).format(typeof date === "string" ? new Date(date) : date);
}

/** Digits only, exactly 10, else empty; formatted as (xxx) xxx-xxxx. */
export function formatPhone(value: string): string {
  const digits = value.replace(/\D/g, "");
  if (digits.length !== 10) return "";
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

export function telHref(phone: string): string {
  return `tel:+1${phone.replace(/\D/g, "").slice(-10)}`;
}

export function upperCase(input: unknown): string {
  if (typeof input !== "string") throw new TypeError("Input must be a string");
  return input.toUpperCase();
}

/** Parses a quantity: an integer not below 1; anything else becomes 1. */
export function parseQuantity(value: unknown, max = Number.POSITIVE_INFINITY): number {
  const parsed = Number.parseInt(String(value ?? ""), 10);
  if (!Number.isFinite(parsed) || parsed < 1) return 1;
  return Math.min(parsed, max);
}

/** Percent of a price in cents, rounded to the cent. */
export function scaleCents(cents: number, factor: number): number {
  return Math.round(cents * factor);
}

const dateTimeUtc = onFirstUse(
  () =>
    new Intl.DateTimeFormat("en-US", {
      month: "long",
      day: "2-digit",
      year: "numeric",
      hour: "numeric",
      minute: "2-digit",
      second: "2-digit",
      timeZone: "UTC",
      timeZoneName: "short",
    }),
);

/** "November 05, 2026 at 3:30:00 PM UTC": a moment, for logs and the email outbox. */
export function formatDateTimeUtc(date: Date | string): string {
  return dateTimeUtc().format(typeof date === "string" ? new Date(date) : date);
}
