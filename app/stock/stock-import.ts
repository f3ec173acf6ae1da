import type { StockImportError, StockImportRow, StockPolicy } from "~/db/schema";
import {
  columnNamedTwice,
  decodeCsvUpload,
  productKeyCell,
  readCsvTable,
  shownCell as shown,
  startsLikeFormula,
  uploadFileName,
  type Checked,
} from "~/utils/csv-upload";

/**
 * The stock desk's CSV import, the pure part: reading the file (UTF-8, a header, at most
 * CSV_UPLOAD_MAX_ROWS rows; app/utils/csv-upload.ts), checking each row (a whole number from 0 to MAX_ON_HAND, no formula, each
 * product once), and the preview's plan against the counts now (known, counted, never below what checkouts
 * hold). Saving the preview and applying it are in stock-import.server.ts.
 */

/** The largest count staff may set, by the form or a file. */
export const MAX_ON_HAND = 100_000;
/** The longest reason a count may give. */
export const STOCK_REASON_MAX = 200;

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
  if (startsLikeFormula(raw)) {
    return { ok: false, message: `The reason starts with ${shown(raw.trim().charAt(0) || "a tab")}: formulas are not accepted.` };
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const value = raw.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  if (value.length > STOCK_REASON_MAX) {
    return { ok: false, message: `The reason is ${value.length} characters long: at most ${STOCK_REASON_MAX}.` };
  }
  return { ok: true, value };
}

/** The file's name as the preview and the movements name it (app/utils/csv-upload.ts). */
export function importFileName(raw: string): string {
  return uploadFileName(raw, "stock.csv");
}

/** The reason a row without one is recorded with. */
export function defaultImportReason(fileName: string): string {
  return `CSV import ${fileName}`.slice(0, STOCK_REASON_MAX);
}

/** The file's text: UTF-8, or why it cannot be read as a CSV file (app/utils/csv-upload.ts). */
export function decodeStockFile(bytes: Uint8Array): Checked<string> {
  return decodeCsvUpload(bytes, { emptyFile: EMPTY_FILE, columns: "product_key,on_hand,reason" });
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

/**
 * The file's rows: a header naming product_key and on_hand (reason is optional; other columns, such as the
 * export's title, policy, held and available, are ignored), then at most CSV_UPLOAD_MAX_ROWS rows. A
 * problem with the whole file is a message; a problem with a row is that row's error, and the rest are read.
 */
export function parseStockFile(text: string): Checked<StockFile> {
  const table = readCsvTable(text, EMPTY_FILE);
  if (!table.ok) return table;
  const { header, headerRow, headerText } = table.value;
  const keyColumn = header.indexOf("product_key");
  const countColumn = header.indexOf("on_hand");
  const reasonColumn = header.indexOf("reason");
  if (keyColumn === -1 || countColumn === -1) {
    return {
      ok: false,
      message: `Row ${headerRow} must be the header product_key,on_hand (and optionally reason); it is ${shown(headerText)}.`,
    };
  }
  const twice = columnNamedTwice(header, ["product_key", "on_hand", "reason"]);
  if (twice) return { ok: false, message: `The header names the column ${twice} twice.` };

  const rows: CountRow[] = [];
  const errors: StockImportError[] = [];
  const firstRowOf = new Map<string, number>();
  let blank = 0;
  for (const { row, cells } of table.value.rows) {
    const productKey = productKeyCell(cells[keyColumn] ?? "", row, firstRowOf);
    if (!productKey.ok) {
      errors.push({ row, message: productKey.message });
      continue;
    }
    const rawCount = cells[countColumn] ?? "";
    if (rawCount.trim() === "") {
      blank += 1;
      continue;
    }
    const count = parseCount(rawCount);
    if (!count.ok) {
      errors.push({ row, message: `on_hand ${count.message}` });
      continue;
    }
    const reason = reasonColumn === -1 ? { ok: true as const, value: "" } : parseReason(cells[reasonColumn] ?? "");
    if (!reason.ok) {
      errors.push({ row, message: reason.message });
      continue;
    }
    rows.push({ row, productKey: productKey.value, onHand: count.value, reason: reason.value || null });
  }
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
