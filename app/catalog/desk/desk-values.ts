import { centsOfTypedDollars } from "~/utils/money";
import { formatDateTimeUtc, formatUsd } from "~/utils/format";

/**
 * What the catalogue desk edits of a product, the rules between those values, and how each is written
 * in the audit (app/catalog/desk/catalog-desk.server.ts) and the CSV (catalog-csv.ts). Pure: the desk's
 * forms, its CSV import and their tests share it. Money is integer cents; times are UTC.
 */
export interface DeskValues {
  /** The regular price. */
  priceCents: number;
  /** Struck through beside the price when higher than it. */
  compareAtCents: number | null;
  salePriceCents: number | null;
  saleStartsAt: Date | null;
  saleEndsAt: Date | null;
  title: string;
  description: string;
  published: boolean;
  nonReturnable: boolean;
  customMade: boolean;
  madeToOrder: boolean;
}

export type DeskField = keyof DeskValues;

/** Only an owner changes these (app/staff/roles.ts). */
export const PRICE_FIELDS = ["priceCents", "compareAtCents", "salePriceCents", "saleStartsAt", "saleEndsAt"] as const satisfies readonly DeskField[];
export const DETAIL_FIELDS = ["title", "description", "published", "nonReturnable", "customMade", "madeToOrder"] as const satisfies readonly DeskField[];
export const DESK_FIELDS: readonly DeskField[] = [...PRICE_FIELDS, ...DETAIL_FIELDS];

export const DESK_FIELD_LABELS: Record<DeskField, string> = {
  priceCents: "Price",
  compareAtCents: "Compare-at price",
  salePriceCents: "Sale price",
  saleStartsAt: "Sale starts",
  saleEndsAt: "Sale ends",
  title: "Title",
  description: "Description",
  published: "Published",
  nonReturnable: "Non-returnable",
  customMade: "Custom",
  madeToOrder: "Made to order",
};

/** The most a price may be: a typing slip of three zeros is refused, not charged. */
export const MAX_PRICE_CENTS = 100_000_000;
export const TITLE_MAX = 200;
/** Well within the 64 KB a staff form may be, whatever its characters. */
export const DESCRIPTION_MAX = 10_000;

export const DESK_MESSAGES = {
  saleBelowPrice: "The sale price must be lower than the price.",
  compareAbovePrice: "The compare-at price must be higher than the price.",
  saleEndsAfterStart: "The sale must end after it starts.",
  saleNeedsPrice: "A sale needs a sale price: enter one, or clear the sale's dates.",
  stale: "This product was changed by someone else since the page was shown, so nothing was saved. Check its values now and try again.",
  notFound: "There is no such product.",
  nothing: "Nothing was changed: every value is the one the product has.",
} as const;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Dollars as typed by a person ("1299", "1,299.00", "$1,299.5") as integer cents: at most two digits after the
 * point, more than $0 and at most MAX_PRICE_CENTS. Digit by digit, so no binary fraction creeps in.
 */
export function parsePriceInput(text: string, label: string): Parsed<number> {
  if (text.trim().replace(/^\$/, "").startsWith("-")) return { ok: false, message: `${label} cannot be negative.` };
  const cents = centsOfTypedDollars(text);
  if (cents === null) return { ok: false, message: `${label} must be an amount in dollars, like 1299.00.` };
  if (cents <= 0) return { ok: false, message: `${label} must be more than $0.00.` };
  if (cents > MAX_PRICE_CENTS) return { ok: false, message: `${label} must be at most ${formatUsd(MAX_PRICE_CENTS)}.` };
  return { ok: true, value: cents };
}

/** An optional price: empty means none. */
export function parseOptionalPriceInput(text: string, label: string): Parsed<number | null> {
  return text.trim() === "" ? { ok: true, value: null } : parsePriceInput(text, label);
}

/**
 * A UTC date and time as a `datetime-local` field or a CSV writes it ("2026-12-24T09:00", "2026-12-24 09:00",
 * "2026-12-24": midnight, a trailing "Z" or ":00" seconds allowed); empty means none.
 */
export function parseUtcDateTimeInput(text: string, label: string): Parsed<Date | null> {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, value: null };
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?Z?$/.exec(trimmed);
  const wrong = { ok: false, message: `${label} must be a date and time in UTC, like 2026-12-24 09:00.` } as const;
  if (!match) return wrong;
  const [year, month, day, hour = "0", minute = "0", second = "0"] = match.slice(1).map((part) => part ?? undefined) as string[];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)));
  const roundTrips =
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day) &&
    date.getUTCHours() === Number(hour) &&
    date.getUTCMinutes() === Number(minute);
  if (!roundTrips || Number(year) < 2000 || Number(year) > 2999) return wrong;
  return { ok: true, value: date };
}

/** The value a `datetime-local` field shows for a UTC time. */
export function utcDateTimeInputValue(date: Date | string | null): string {
  return date ? new Date(date).toISOString().slice(0, 16) : "";
}

/** The rules between the values, on the values the product would have: the first broken one's message, or null. */
export function deskValuesProblem(values: DeskValues): string | null {
  if (values.salePriceCents !== null && values.salePriceCents >= values.priceCents) return DESK_MESSAGES.saleBelowPrice;
  if (values.compareAtCents !== null && values.compareAtCents <= values.priceCents) return DESK_MESSAGES.compareAbovePrice;
  if (values.salePriceCents === null && (values.saleStartsAt || values.saleEndsAt)) return DESK_MESSAGES.saleNeedsPrice;
  if (values.saleStartsAt && values.saleEndsAt && values.saleEndsAt.getTime() <= values.saleStartsAt.getTime()) {
    return DESK_MESSAGES.saleEndsAfterStart;
  }
  return null;
}

/** A value as the audit and the CSV keep it: cents as whole numbers, times as ISO text, flags as yes/no, none as null. */
export function deskValueText(field: DeskField, value: DeskValues[DeskField]): string | null {
  if (value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

/** A value back from its text (deskValueText), as a CSV import's preview keeps it until it is applied. */
export function deskValueFromText(field: DeskField, text: string | null): DeskValues[DeskField] {
  if (text === null) return null;
  if (field.endsWith("Cents")) return Number(text);
  if (field.endsWith("At")) return new Date(text);
  if (field === "title" || field === "description") return text;
  return text === "yes";
}

/** An audit value as a person reads it: dollars, UTC times, yes/no, "none". */
export function describeDeskValue(field: string, text: string | null): string {
  if (text === null) return "none";
  if (field.endsWith("Cents") && /^\d+$/.test(text)) return formatUsd(Number(text));
  if (field.endsWith("At")) return formatDateTimeUtc(text);
  return text;
}

export interface DeskChange {
  field: DeskField;
  before: string | null;
  after: string | null;
}

/** The fields whose value `next` changes, each with its text before and after. */
export function deskChanges(before: DeskValues, next: Partial<DeskValues>): DeskChange[] {
  const changes: DeskChange[] = [];
  for (const field of DESK_FIELDS) {
    if (!(field in next)) continue;
    const was = deskValueText(field, before[field]);
    const now = deskValueText(field, next[field] as DeskValues[DeskField]);
    if (was !== now) changes.push({ field, before: was, after: now });
  }
  return changes;
}
