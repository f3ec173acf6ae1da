import { parseCsv } from "./csv";

/**
 * What every staff CSV upload (the stock desk's counts, the catalogue desk's prices and flags) shares, the
 * pure part: the file's size and row limits, its bytes read as UTF-8 text or refused with a message a person
 * can act on, its name as a page shows it, and the formula rule. Each import reads its own columns.
 */

/** The largest file an import reads. */
export const CSV_UPLOAD_MAX_BYTES = 1024 * 1024;
/** The most rows (after the header) one file may hold. */
export const CSV_UPLOAD_MAX_ROWS = 5_000;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const FORMULA_START = /^[=+\-@\t\r]/;

/** What a spreadsheet would run as a formula: a cell starting with =, +, -, @, a tab or a carriage return (before or after spaces). */
export function startsLikeFormula(cell: string): boolean {
  return FORMULA_START.test(cell) || FORMULA_START.test(cell.trim());
}

/** A cell as a page shows it in a message: at most 40 characters, quoted. */
export function shownCell(value: string): string {
  const short = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return `“${short}”`;
}

/** The file's name as the preview names it: no folders, no control characters, at most 100 characters; `fallback` when none is left. */
export function uploadFileName(raw: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const base = (raw.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return base.slice(0, 100) || fallback;
}

/**
 * The file's text: UTF-8 (a byte order mark is dropped), or why it cannot be read as a CSV file. `emptyFile`
 * is the import's own message for an empty file, `columns` its header as the messages name it.
 */
export function decodeCsvUpload(bytes: Uint8Array, { emptyFile, columns }: { emptyFile: string; columns: string }): Checked<string> {
  if (bytes.byteLength === 0) return { ok: false, message: emptyFile };
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
  if (bytes.includes(0)) return { ok: false, message: `This is not a text file. Upload a CSV file (${columns}).` };
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

/** A header cell as a name: "Product Key", "on-hand" and "ON_HAND" are the same column. */
function csvColumnName(cell: string): string {
  return cell
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/** The message for a header written with semicolons (a spreadsheet's "CSV" in some locales). */
const SEMICOLON_HEADER =
  "The columns are separated by semicolons. Save the file as “CSV UTF-8 (comma delimited)”, with commas, and upload it again.";

/** The message for a file with more rows than CSV_UPLOAD_MAX_ROWS. */
const TOO_MANY_ROWS = `The file has more than ${CSV_UPLOAD_MAX_ROWS.toLocaleString("en-US")} rows. Split it into files of at most ${CSV_UPLOAD_MAX_ROWS.toLocaleString("en-US")} rows.`;

/** A file's header and rows, blank rows left out, each row with its number as a spreadsheet shows it. */
export interface CsvTable {
  /** The header's column names (csvColumnName), in order. */
  header: string[];
  /** The header row as written, and its number, for the message of a wrong header. */
  headerText: string;
  headerRow: number;
  rows: Array<{ row: number; cells: string[] }>;
}

/**
 * The text as a table: the first row that is not blank is the header, then at most CSV_UPLOAD_MAX_ROWS rows
 * that are not blank (the file is at most CSV_UPLOAD_MAX_BYTES, so it is read whole and no row is lost
 * unread). An empty file, a header written with semicolons and too many rows are refused here.
 */
export function readCsvTable(text: string, emptyFile: string): Checked<CsvTable> {
  const parsed = parseCsv(text);
  if (!parsed.ok) return parsed;
  const isBlank = (record: string[]) => record.every((cell) => cell.trim() === "");
  const headerIndex = parsed.records.findIndex((record) => !isBlank(record));
  if (headerIndex === -1) return { ok: false, message: emptyFile };
  const header = parsed.records[headerIndex]!.map(csvColumnName);
  if (header.length === 1 && header[0]!.includes(";")) return { ok: false, message: SEMICOLON_HEADER };
  const rows = parsed.records
    .map((cells, index) => ({ row: index + 1, cells }))
    .slice(headerIndex + 1)
    .filter(({ cells }) => !isBlank(cells));
  if (rows.length > CSV_UPLOAD_MAX_ROWS) return { ok: false, message: TOO_MANY_ROWS };
  return { ok: true, value: { header, headerText: parsed.records[headerIndex]!.join(","), headerRow: headerIndex + 1, rows } };
}

/** The header names a column twice: the first such name of `names`, or undefined. */
export function columnNamedTwice(header: readonly string[], names: readonly string[]): string | undefined {
  return names.find((name) => header.indexOf(name) !== header.lastIndexOf(name));
}

/**
 * A row's product_key cell, checked as every import checks it: not empty, not a formula, of a plausible
 * length, and on no earlier row (`firstRowOf` remembers them). The key, or the row's error message.
 */
export function productKeyCell(raw: string, row: number, firstRowOf: Map<string, number>): Checked<string> {
  const productKey = raw.trim();
  if (productKey === "") return { ok: false, message: "product_key is empty." };
  if (startsLikeFormula(raw)) {
    return { ok: false, message: `product_key ${shownCell(productKey)} starts like a formula (=, +, -, @): formulas are not accepted.` };
  }
  if (productKey.length > 200) return { ok: false, message: `There is no product ${shownCell(productKey)}.` };
  const earlier = firstRowOf.get(productKey);
  if (earlier !== undefined) {
    return { ok: false, message: `${shownCell(productKey)} is also on row ${earlier}: each product may be on one row only.` };
  }
  firstRowOf.set(productKey, row);
  return { ok: true, value: productKey };
}
