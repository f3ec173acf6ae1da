import type { StockImportError, StockImportRow, StockPolicy } from "~/db/schema";
import { parseCsv } from "~/utils/csv";

/**
 * The stock desk's CSV import, the pure part: reading the file (UTF-8, a header, at most
 * STOCK_IMPORT_MAX_ROWS rows), checking each row (a whole number from 0 to MAX_ON_HAND, no formula, each
 * product once), and the preview's plan against the counts now (known, counted, never below what checkouts
 * hold). Saving the preview and applying it are in stock-import.server.ts.
 */

/** The largest file the import reads. */
export const STOCK_IMPORT_MAX_BYTES = 1024 * 1024;
/** The most rows (after the header) one file may hold. */
export const STOCK_IMPORT_MAX_ROWS = 5_000;
/** The largest count staff may set, by the form or a file. */
export const MAX_ON_HAND = 100_000;
/** The longest reason a count may give. */
export const STOCK_REASON_MAX = 200;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** What a spreadsheet would run as a formula: a cell starting with =, +, -, @, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as a page shows it in a message: at most 40 characters, quoted. */
function shown(value: string): string {
  const short = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return `“${short}”`;
}

/**
 * A count typed by staff or read from a file: digits only (spaces around are fine), from 0 to MAX_ON_HAND.
 * The refusal says which rule it breaks: not a whole number, negative, too large.
 */
export function parseCount(raw: string): Checked<number> {
  const value = raw.trim();
  if (value === "") return { ok: false, message: "The count is empty: write a whole number, e.g. 12." };
  if (/^\d{1,12}$/.test(value)) {
    const count = Number(value);
    if (count > MAX_ON_HAND) return { ok: false, message: `${shown(value)} is more than ${MAX_ON_HAND.toLocaleString("en-US")}.` };
    return { ok: true, value: count };
  }
  if (/^-\s*\d+([.,]\d+)?$/.test(value)) return { ok: false, message: `${shown(value)} is negative: a count is 0 or more.` };
  if (/^\d+$/.test(value)) return { ok: false, message: `${shown(value)} is more than ${MAX_ON_HAND.toLocaleString("en-US")}.` };
  return { ok: false, message: `${shown(value)} is not a whole number: write digits only, e.g. 12.` };
}

/** A reason as stored: control characters become spaces, no formula, at most STOCK_REASON_MAX characters. Empty is allowed here. */
export function parseReason(raw: string): Checked<string> {
  if (FORMULA_START.test(raw) || FORMULA_START.test(raw.trim())) {
    return { ok: false, message: `The reason starts with ${shown(raw.trim().charAt(0) || "a tab")}: formulas are not accepted.` };
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const value = raw.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  if (value.length > STOCK_REASON_MAX) {
    return { ok: false, message: `The reason is ${value.length} characters long: at most ${STOCK_REASON_MAX}.` };
  }
  return { ok: true, value };
}

/** The file's name as the preview and the movements name it: no folders, no control characters, at most 100 characters. */
export function importFileName(raw: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const base = (raw.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return base.slice(0, 100) || "stock.csv";
}

/** The reason a row without one is recorded with. */
export function defaultImportReason(fileName: string): string {
  return `CSV import ${fileName}`.slice(0, STOCK_REASON_MAX);
}

/** The file's text: UTF-8 (a byte order mark is dropped), or why it cannot be read as a CSV file. */
export function decodeStockFile(bytes: Uint8Array): Checked<string> {
  if (bytes.byteLength === 0) return { ok: false, message: EMPTY_FILE };
  const startsWith = (...prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);
  if (startsWith(0x50, 0x4b, 0x03, 0x04) || startsWith(0xd0, 0xcf, 0x11, 0xe0)) {
    return {
      ok: false,
      message:
        "This is a spreadsheet workbook (.xlsx, .xls or .ods), not a CSV file. Save it as “CSV UTF-8 (comma delimited)” and upload that.",
    };
  }
  if (startsWith(0xff, 0xfe) || startsWith(0xfe, 0xff)) {
    return { ok: false, message: "This file is UTF-16 text. Save it as “CSV UTF-8 (comma delimited)” and upload that." };
  }
  if (bytes.includes(0)) return { ok: false, message: "This is not a text file. Upload a CSV file (product_key,on_hand,reason)." };
  try {
    return { ok: true, value: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return {
      ok: false,
      message:
        "This file is not UTF-8 text (it may be saved as Windows-1252 or Latin-1). Save it as “CSV UTF-8 (comma delimited)” and upload it again.",
    };
  }
}

const EMPTY_FILE = "The file is empty. It needs the header product_key,on_hand (and optionally reason), then a row per product.";

/** A row of the file that reads well: its product, the count asked for, and its reason (null: none given). */
export interface CountRow {
  row: number;
  productKey: string;
  onHand: number;
  reason: string | null;
}

export interface StockFile {
  rows: CountRow[];
  /** The rows that cannot be read, with their spreadsheet row number. */
  errors: StockImportError[];
  /** Rows with an empty on_hand: left out (the export's made-to-order rows have none). */
  blank: number;
}

/** A header cell as a name: "Product Key", "on-hand" and "ON_HAND" are the same column. */
function columnName(cell: string): string {
  return cell
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/**
 * The file's rows: a header naming product_key and on_hand (reason is optional; other columns, such as the
 * export's title, policy, held and available, are ignored), then at most STOCK_IMPORT_MAX_ROWS rows. A
 * problem with the whole file is a message; a problem with a row is that row's error, and the rest are read.
 */
export function parseStockFile(text: string): Checked<StockFile> {
  const parsed = parseCsv(text, { maxRecords: STOCK_IMPORT_MAX_ROWS + 1 });
  if (!parsed.ok) return parsed;
  const isBlank = (record: string[]) => record.every((cell) => cell.trim() === "");
  const records = parsed.records;
  const headerIndex = records.findIndex((record) => !isBlank(record));
  if (headerIndex === -1) return { ok: false, message: EMPTY_FILE };
  const header = records[headerIndex]!.map(columnName);
  if (header.length === 1 && header[0]!.includes(";")) {
    return {
      ok: false,
      message: "The columns are separated by semicolons. Save the file as “CSV UTF-8 (comma delimited)”, with commas, and upload it again.",
    };
  }
  const keyColumn = header.indexOf("product_key");
  const countColumn = header.indexOf("on_hand");
  const reasonColumn = header.indexOf("reason");
  if (keyColumn === -1 || countColumn === -1) {
    const found = records[headerIndex]!.join(",");
    return {
      ok: false,
      message: `Row ${headerIndex + 1} must be the header product_key,on_hand (and optionally reason); it is ${shown(found)}.`,
    };
  }
  const twice = ["product_key", "on_hand", "reason"].find((name) => header.indexOf(name) !== header.lastIndexOf(name));
  if (twice) return { ok: false, message: `The header names the column ${twice} twice.` };

  const body = records.slice(headerIndex + 1);
  if (body.filter((record) => !isBlank(record)).length > STOCK_IMPORT_MAX_ROWS) {
    return {
      ok: false,
      message: `The file has more than ${STOCK_IMPORT_MAX_ROWS.toLocaleString("en-US")} rows. Split it into files of at most ${STOCK_IMPORT_MAX_ROWS.toLocaleString("en-US")} rows.`,
    };
  }
  const rows: CountRow[] = [];
  const errors: StockImportError[] = [];
  const firstRowOf = new Map<string, number>();
  let blank = 0;
  body.forEach((record, index) => {
    const row = headerIndex + index + 2;
    if (isBlank(record)) return;
    const rawKey = record[keyColumn] ?? "";
    const productKey = rawKey.trim();
    const rawCount = record[countColumn] ?? "";
    if (productKey === "") {
      errors.push({ row, message: "product_key is empty." });
      return;
    }
    if (FORMULA_START.test(rawKey) || FORMULA_START.test(productKey)) {
      errors.push({ row, message: `product_key ${shown(productKey)} starts like a formula (=, +, -, @): formulas are not accepted.` });
      return;
    }
    if (productKey.length > 200) {
      errors.push({ row, message: `There is no product ${shown(productKey)}.` });
      return;
    }
    const earlier = firstRowOf.get(productKey);
    if (earlier !== undefined) {
      errors.push({ row, message: `${shown(productKey)} is also on row ${earlier}: each product may be on one row only.` });
      return;
    }
    firstRowOf.set(productKey, row);
    if (rawCount.trim() === "") {
      blank += 1;
      return;
    }
    const count = parseCount(rawCount);
    if (!count.ok) {
      errors.push({ row, message: `on_hand ${count.message}` });
      return;
    }
    const reason = reasonColumn === -1 ? { ok: true as const, value: "" } : parseReason(record[reasonColumn] ?? "");
    if (!reason.ok) {
      errors.push({ row, message: reason.message });
      return;
    }
    rows.push({ row, productKey, onHand: count.value, reason: reason.value || null });
  });
  if (rows.length === 0 && errors.length === 0) {
    return { ok: false, message: "The file has its header but no row with a count to import." };
  }
  return { ok: true, value: { rows, errors, blank } };
}

/** A product's stock now, as the preview compares a file with it. */
export interface StockNow {
  title: string;
  policy: StockPolicy;
  onHand: number;
  reserved: number;
}

/**
 * The preview: each row's count now (`before`) and the count asked for (`after`), with its reason (the
 * file's, or "CSV import {file}"); a row for an unknown product, one made to order, or one below what
 * checkouts hold now is an error. Errors come in row order.
 */
export function planStockImport(
  file: StockFile,
  stock: ReadonlyMap<string, StockNow>,
  fileName: string,
): { rows: StockImportRow[]; errors: StockImportError[] } {
  const rows: StockImportRow[] = [];
  const errors = [...file.errors];
  for (const line of file.rows) {
    const now = stock.get(line.productKey);
    if (!now) {
      errors.push({ row: line.row, message: `There is no product ${shown(line.productKey)}.` });
      continue;
    }
    if (now.policy !== "tracked") {
      errors.push({ row: line.row, message: `${shown(line.productKey)} is made to order: it has no count.` });
      continue;
    }
    if (line.onHand < now.reserved) {
      errors.push({
        row: line.row,
        message: `${now.reserved} of ${shown(line.productKey)} are held by checkouts paying now: the count must be at least ${now.reserved}.`,
      });
      continue;
    }
    rows.push({
      row: line.row,
      productKey: line.productKey,
      title: now.title,
      before: now.onHand,
      after: line.onHand,
      reason: line.reason ?? defaultImportReason(fileName),
    });
  }
  errors.sort((a, b) => a.row - b.row);
  return { rows, errors };
}

/** What a preview changes: rows whose count moves, rows already right, and the units added and taken away. */
export function importSummary(rows: readonly StockImportRow[]): { changes: number; unchanged: number; added: number; removed: number } {
  let added = 0;
  let removed = 0;
  let changes = 0;
  for (const row of rows) {
    if (row.after === row.before) continue;
    changes += 1;
    if (row.after > row.before) added += row.after - row.before;
    else removed += row.before - row.after;
  }
  return { changes, unchanged: rows.length - changes, added, removed };
}

/** A row whose product changed since the preview was made, as the refusal of the whole import names it. */
export interface ImportConflict {
  row: number;
  productKey: string;
  message: string;
}

/** The refusal of an import whose counts moved since its preview: every row named (the first 20, then how many more). */
export function conflictMessage(conflicts: readonly ImportConflict[]): string {
  const named = conflicts.slice(0, 20).map((conflict) => `row ${conflict.row} (${conflict.productKey}): ${conflict.message}`);
  const more = conflicts.length > 20 ? `; and ${conflicts.length - 20} more rows` : "";
  return `Nothing was changed: ${conflicts.length === 1 ? "one count" : `${conflicts.length} counts`} changed since this preview was made (${named.join("; ")}${more}). Upload the file again for a new preview.`;
}
