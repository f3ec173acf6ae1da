import { decimalOfCents } from "~/utils/money";
import type { CatalogImportRow, StockImportError } from "~/db/schema";
import { csvDocument, csvLine } from "~/utils/csv";
import { columnNamedTwice, decodeCsvUpload, productKeyCell, readCsvTable, shownCell, startsLikeFormula, type Checked } from "~/utils/csv-upload";
import {
  deskChanges,
  deskValuesProblem,
  DESK_FIELD_LABELS,
  parseOptionalPriceInput,
  parsePriceInput,
  parseUtcDateTimeInput,
  type DeskField,
  type DeskValues,
} from "./desk-values";

/**
 * The catalogue desk's CSV of prices and flags, both ways, the pure part: the export's lines, and the import's
 * reading (a header, at most CSV_UPLOAD_MAX_ROWS rows, each product once, no formula) and its preview against
 * the products now, checked by the desk's own rules (desk-values.ts). Prices are dollars with cents in the
 * file ("1299.00") and integer cents everywhere else; times are UTC. Saving and applying the preview are in
 * catalog-import.server.ts.
 */

/** The file's editable columns, each the desk field it sets. */
export const CSV_COLUMN_FIELDS = {
  price: "priceCents",
  compare_at_price: "compareAtCents",
  sale_price: "salePriceCents",
  sale_starts: "saleStartsAt",
  sale_ends: "saleEndsAt",
  published: "published",
  non_returnable: "nonReturnable",
  custom: "customMade",
  made_to_order: "madeToOrder",
} as const satisfies Record<string, Exclude<DeskField, "title" | "description">>;

type CsvColumn = keyof typeof CSV_COLUMN_FIELDS;
const EDITABLE_COLUMNS = Object.keys(CSV_COLUMN_FIELDS) as CsvColumn[];

/** What the export writes: the product, what names it to a person (ignored by the import), and the editable columns. */
export const CATALOG_CSV_HEADER = ["product_key", "brand", "model", "title", ...EDITABLE_COLUMNS] as const;

/** A UTC time as the file writes it: "2026-12-24 09:00". */
function utcMinute(date: Date): string {
  return date.toISOString().slice(0, 16).replace("T", " ");
}

/** A product as the export writes it: everything the desk edits but the description, which the file leaves out. */
export type CsvProduct = { key: string; brand: string; model: string } & Omit<DeskValues, "description">;

/** The export: CATALOG_CSV_HEADER, then a line per product, in the order given. */
export function catalogCsvDocument(rows: readonly CsvProduct[]): string {
  const yesNo = (flag: boolean) => (flag ? "yes" : "no");
  const lines = rows.map((row) =>
    csvLine([
      row.key,
      row.brand,
      row.model,
      row.title,
      decimalOfCents(row.priceCents),
      row.compareAtCents === null ? "" : decimalOfCents(row.compareAtCents),
      row.salePriceCents === null ? "" : decimalOfCents(row.salePriceCents),
      row.saleStartsAt ? utcMinute(row.saleStartsAt) : "",
      row.saleEndsAt ? utcMinute(row.saleEndsAt) : "",
      yesNo(row.published),
      yesNo(row.nonReturnable),
      yesNo(row.customMade),
      yesNo(row.madeToOrder),
    ]),
  );
  return csvDocument([csvLine(CATALOG_CSV_HEADER), ...lines]);
}

const COLUMNS_NAMED = "product_key and one or more of price, compare_at_price, sale_price, sale_starts, sale_ends, published, non_returnable, custom, made_to_order";
const EMPTY_FILE = `The file is empty. It needs a header row (${COLUMNS_NAMED}), then a row per product.`;

/** The file's text: UTF-8, or why it cannot be read as a CSV file (app/utils/csv-upload.ts). */
export function decodeCatalogFile(bytes: Uint8Array): Checked<string> {
  return decodeCsvUpload(bytes, { emptyFile: EMPTY_FILE, columns: "product_key,price,sale_price,…" });
}

const YES = new Set(["yes", "y", "true", "1"]);
const NO = new Set(["no", "n", "false", "0"]);

/** A flag as a person writes it: yes or no (y/n, true/false, 1/0 too). */
function parseFlag(text: string, label: string): Checked<boolean> {
  const value = text.trim().toLowerCase();
  if (YES.has(value)) return { ok: true, value: true };
  if (NO.has(value)) return { ok: true, value: false };
  return { ok: false, message: `${label} must be yes or no, not ${shownCell(text.trim())}.` };
}

/** A cell of an editable column read as its desk value, or the reason it cannot be. */
function parseCell(column: CsvColumn, cell: string): Checked<DeskValues[DeskField]> {
  const field = CSV_COLUMN_FIELDS[column];
  const label = `${column} (${DESK_FIELD_LABELS[field]})`;
  if (startsLikeFormula(cell) && !/^\s*-\s*\$?\d/.test(cell)) {
    return { ok: false, message: `${column} ${shownCell(cell.trim())} starts like a formula (=, +, -, @): formulas are not accepted.` };
  }
  const checked = (parsed: { ok: true; value: DeskValues[DeskField] } | { ok: false; message: string }) => parsed;
  switch (field) {
    case "priceCents":
      return cell.trim() === "" ? { ok: false, message: `${label} is empty: every product has a price.` } : checked(parsePriceInput(cell, label));
    case "compareAtCents":
    case "salePriceCents":
      return checked(parseOptionalPriceInput(cell, label));
    case "saleStartsAt":
    case "saleEndsAt":
      return checked(parseUtcDateTimeInput(cell, label));
    default:
      return cell.trim() === "" ? { ok: false, message: `${label} is empty: write yes or no.` } : checked(parseFlag(cell, label));
  }
}

/** A row of the file that reads well: its product and the values its columns ask for. */
export interface CatalogFileRow {
  row: number;
  productKey: string;
  values: Partial<DeskValues>;
}

export interface CatalogFile {
  rows: CatalogFileRow[];
  /** The rows that cannot be read, with their spreadsheet row number. */
  errors: StockImportError[];
}

/**
 * The file's rows: a header naming product_key and at least one editable column (brand, model, title and
 * any other column are ignored), then at most CSV_UPLOAD_MAX_ROWS rows. A problem with the whole file is a
 * message; a problem with a row is that row's error (the first of its cells), and the rest are read.
 */
export function parseCatalogFile(text: string): Checked<CatalogFile> {
  const table = readCsvTable(text, EMPTY_FILE);
  if (!table.ok) return table;
  const { header, headerRow, headerText } = table.value;
  const keyColumn = header.indexOf("product_key");
  const editable = EDITABLE_COLUMNS.filter((column) => header.includes(column));
  if (keyColumn === -1 || editable.length === 0) {
    return { ok: false, message: `Row ${headerRow} must be the header: ${COLUMNS_NAMED}; it is ${shownCell(headerText)}.` };
  }
  const twice = columnNamedTwice(header, ["product_key", ...editable]);
  if (twice) return { ok: false, message: `The header names the column ${twice} twice.` };

  const rows: CatalogFileRow[] = [];
  const errors: StockImportError[] = [];
  const firstRowOf = new Map<string, number>();
  for (const { row, cells } of table.value.rows) {
    const productKey = productKeyCell(cells[keyColumn] ?? "", row, firstRowOf);
    const values = productKey.ok ? rowValues(cells, header, editable) : productKey;
    if (!values.ok) errors.push({ row, message: values.message });
    else if (productKey.ok) rows.push({ row, productKey: productKey.value, values: values.value });
  }
  if (rows.length === 0 && errors.length === 0) return { ok: false, message: "The file has its header but no product row." };
  return { ok: true, value: { rows, errors } };
}

/** The values a row's editable cells ask for, or the first cell's reason it cannot be read. */
function rowValues(cells: readonly string[], header: readonly string[], editable: readonly CsvColumn[]): Checked<Partial<DeskValues>> {
  const values: Partial<DeskValues> = {};
  for (const column of editable) {
    const cell = parseCell(column, cells[header.indexOf(column)] ?? "");
    if (!cell.ok) return cell;
    Object.assign(values, { [CSV_COLUMN_FIELDS[column]]: cell.value });
  }
  return { ok: true, value: values };
}

/** A product as the preview compares a row with it. */
export type ProductNow = { deskVersion: number } & DeskValues;

/**
 * The preview: each row's product with every field the row changes (its value now and asked for, as the audit
 * writes them) and the product's version now. A row for an unknown product, or whose values together break a
 * desk rule (a sale price not below the price, a sale ending before it starts...), is an error. Errors come in row order.
 */
export function planCatalogImport(
  file: CatalogFile,
  now: ReadonlyMap<string, ProductNow>,
): { rows: CatalogImportRow[]; errors: StockImportError[] } {
  const rows: CatalogImportRow[] = [];
  const errors = [...file.errors];
  for (const line of file.rows) {
    const product = now.get(line.productKey);
    if (!product) {
      errors.push({ row: line.row, message: `There is no product ${shownCell(line.productKey)}.` });
      continue;
    }
    const { deskVersion, ...before } = product;
    const problem = deskValuesProblem({ ...before, ...line.values });
    if (problem) {
      errors.push({ row: line.row, message: `${line.productKey}: ${problem}` });
      continue;
    }
    rows.push({ row: line.row, productKey: line.productKey, title: before.title, deskVersion, changes: deskChanges(before, line.values) });
  }
  errors.sort((a, b) => a.row - b.row);
  return { rows, errors };
}

/** What a preview changes: the products with a change, the rows already right, and the fields changed in all. */
export function catalogImportSummary(rows: readonly CatalogImportRow[]): { products: number; unchanged: number; fields: number } {
  const changed = rows.filter((row) => row.changes.length > 0);
  return { products: changed.length, unchanged: rows.length - changed.length, fields: changed.reduce((sum, row) => sum + row.changes.length, 0) };
}
