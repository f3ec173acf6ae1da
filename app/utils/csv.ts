/**
 * CSV for spreadsheets, both ways (RFC 4180: commas, CRLF lines, quotes doubled inside quoted cells).
 * Written cells are never read as a formula (a leading =, +, - or @, a tab or a carriage return gets a `'`),
 * except a negative number, which stays a number.
 */

/** A CSV cell quoted where it must be, and never read as a formula by a spreadsheet (a leading =, +, - or @). */
export function csvCell(value: string): string {
  const safe = /^[=+@\t\r]/.test(value) || (/^-/.test(value) && !/^-\d/.test(value)) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One line of cells, without its line end. */
export function csvLine(cells: readonly (string | number)[]): string {
  return cells.map((cell) => csvCell(String(cell))).join(",");
}

/** Lines joined with CRLF, the last one ended too. */
export function csvDocument(lines: readonly string[]): string {
  return `${lines.join("\r\n")}\r\n`;
}

export type CsvParse = { ok: true; records: string[][] } | { ok: false; message: string };

/**
 * The records of a CSV text, each an array of its cells as written (quotes removed, nothing trimmed). A
 * record's index + 1 is its row number as a spreadsheet shows it, whatever line breaks its quoted cells hold.
 * A line end after the last record makes no empty record. Lenient where a spreadsheet is (a quote inside an
 * unquoted cell is kept as it is); refused only for a quoted cell that is never closed.
 */
export function parseCsv(text: string, { maxRecords = Number.POSITIVE_INFINITY }: { maxRecords?: number } = {}): CsvParse {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  let cellStarted = false;
  let quoteOpenedOnRecord = 0;
  let index = 0;
  const endCell = () => {
    record.push(cell);
    cell = "";
    cellStarted = false;
  };
  const endRecord = () => {
    endCell();
    records.push(record);
    record = [];
  };
  while (index < text.length) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          cell += '"';
          index += 2;
          continue;
        }
        quoted = false;
        index += 1;
        continue;
      }
      cell += char;
      index += 1;
      continue;
    }
    if (char === '"' && !cellStarted) {
      quoted = true;
      cellStarted = true;
      quoteOpenedOnRecord = records.length + 1;
      index += 1;
      continue;
    }
    if (char === ",") {
      endCell();
      index += 1;
      continue;
    }
    if (char === "\r" || char === "\n") {
      endRecord();
      if (records.length > maxRecords) return { ok: true, records };
      index += char === "\r" && text[index + 1] === "\n" ? 2 : 1;
      continue;
    }
    cell += char;
    cellStarted = true;
    index += 1;
  }
  if (quoted)
    return { ok: false, message: `Row ${quoteOpenedOnRecord} has a quoted cell that is never closed (a " without its closing ").` };
  if (cellStarted || cell !== "" || record.length > 0) endRecord();
  return { ok: true, records };
}
