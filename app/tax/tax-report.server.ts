import { decimalOfCents } from "~/utils/money";
import { and, gte, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { taxTransactions } from "~/db/schema";
import { csvDocument, csvLine } from "~/utils/csv";

/**
 * The merchant's sales-tax report (issue 48): per destination state and calendar month (UTC), the orders
 * placed, their taxable sales, the tax collected, the tax given back and what is left to remit. It sums the
 * rows the store wrote with each order and each refund (`tax_transactions`): tax collected is the orders'
 * recorded tax, counted in the month the order was placed; tax refunded is counted in the month of the
 * refund, as a return reduces the liability of the period it happens in.
 */
export interface TaxReportRow {
  state: string;
  /** "2026-12". */
  month: string;
  orders: number;
  salesCents: number;
  collectedCents: number;
  refundedCents: number;
  netCents: number;
}

export interface TaxReport {
  from: string;
  to: string;
  rows: TaxReportRow[];
  totals: Omit<TaxReportRow, "state" | "month">;
}

export type ReportRange = { ok: true; from: string; to: string } | { ok: false; message: string };

/** The most months one report spans. */
export const MAX_REPORT_MONTHS = 36;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
export const REPORT_RANGE_MESSAGE = `Choose the months as YYYY-MM, the first no later than the last, at most ${MAX_REPORT_MONTHS} months apart.`;

/** `from` and `to` months from the query; unset, the last 12 months up to this one. */
export function parseReportRange(params: URLSearchParams, now = new Date()): ReportRange {
  const current = monthOf(now);
  const to = params.get("to")?.trim() || current;
  const from = params.get("from")?.trim() || addMonths(to, -11);
  if (!MONTH.test(from) || !MONTH.test(to) || from > to || monthsBetween(from, to) >= MAX_REPORT_MONTHS) {
    return { ok: false, message: REPORT_RANGE_MESSAGE };
  }
  return { ok: true, from, to };
}

export async function taxReport(db: Database, range: { from: string; to: string }): Promise<TaxReport> {
  const month = sql<string>`to_char(${taxTransactions.createdAt} at time zone 'UTC', 'YYYY-MM')`;
  const commit = sql`${taxTransactions.kind} = 'commit'`;
  const reversal = sql`${taxTransactions.kind} = 'reversal'`;
  const rows = await db
    .select({
      state: taxTransactions.state,
      month,
      orders: sql<number>`count(*) filter (where ${commit})::int`,
      sales: sql<string>`coalesce(sum(${taxTransactions.amountCents}) filter (where ${commit}), 0)`,
      collected: sql<string>`coalesce(sum(${taxTransactions.taxCents}) filter (where ${commit}), 0)`,
      refunded: sql<string>`coalesce(sum(${taxTransactions.taxCents}) filter (where ${reversal}), 0)`,
    })
    .from(taxTransactions)
    .where(and(gte(taxTransactions.createdAt, monthStart(range.from)), lt(taxTransactions.createdAt, monthStart(addMonths(range.to, 1)))))
    .groupBy(taxTransactions.state, month)
    .orderBy(month, taxTransactions.state);
  const reportRows = rows.map((row) => {
    const collectedCents = Number(row.collected);
    const refundedCents = Number(row.refunded);
    return {
      state: row.state,
      month: row.month,
      orders: Number(row.orders),
      salesCents: Number(row.sales),
      collectedCents,
      refundedCents,
      netCents: collectedCents - refundedCents,
    };
  });
  const totals = { orders: 0, salesCents: 0, collectedCents: 0, refundedCents: 0, netCents: 0 };
  for (const row of reportRows) for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += row[key];
  return { from: range.from, to: range.to, rows: reportRows, totals };
}

const CSV_HEADER = ["State", "Month", "Orders", "Taxable sales", "Tax collected", "Tax refunded", "Net tax"];

/** The report as CSV: dollars with two decimals, one row per state and month, then the totals. */
export function taxReportCsv(report: TaxReport): string {
  const body = report.rows.map((row) =>
    csvLine([
      row.state,
      row.month,
      row.orders,
      decimalOfCents(row.salesCents),
      decimalOfCents(row.collectedCents),
      decimalOfCents(row.refundedCents),
      decimalOfCents(row.netCents),
    ]),
  );
  const { totals } = report;
  const total = csvLine([
    "All states",
    `${report.from} to ${report.to}`,
    totals.orders,
    decimalOfCents(totals.salesCents),
    decimalOfCents(totals.collectedCents),
    decimalOfCents(totals.refundedCents),
    decimalOfCents(totals.netCents),
  ]);
  return csvDocument([csvLine(CSV_HEADER), ...body, total]);
}

function monthOf(date: Date): string {
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
}

function addMonths(month: string, delta: number): string {
  const [year, index] = month.split("-").map(Number) as [number, number];
  return monthOf(new Date(Date.UTC(year, index - 1 + delta, 1)));
}

function monthsBetween(from: string, to: string): number {
  const [fromYear, fromIndex] = from.split("-").map(Number) as [number, number];
  const [toYear, toIndex] = to.split("-").map(Number) as [number, number];
  return (toYear - fromYear) * 12 + (toIndex - fromIndex);
}

function monthStart(month: string): Date {
  const [year, index] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, index - 1, 1));
}
