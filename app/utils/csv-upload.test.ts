import { describe, expect, it } from "vitest";
import { CSV_UPLOAD_MAX_ROWS, productKeyCell, readCsvTable, uploadFileName } from "./csv-upload";

describe("a staff CSV upload read as a table", () => {
  it("numbers rows as a spreadsheet does and loses none to blank lines", () => {
    const lines = ["", "Product Key,PRICE"];
    for (let index = 0; index < CSV_UPLOAD_MAX_ROWS; index += 1) lines.push(`p-${index},1`, "");
    const table = readCsvTable(lines.join("\n"), "empty");
    expect(table.ok && table.value.header).toEqual(["product_key", "price"]);
    expect(table.ok && table.value.headerRow).toBe(2);
    expect(table.ok && table.value.rows).toHaveLength(CSV_UPLOAD_MAX_ROWS);
    expect(table.ok && table.value.rows.at(-1)).toEqual({ row: 2 * CSV_UPLOAD_MAX_ROWS + 1, cells: [`p-${CSV_UPLOAD_MAX_ROWS - 1}`, "1"] });
  });

  it("refuses an empty file with the import's message, semicolons and one row too many", () => {
    expect(readCsvTable(" \n,\n", "The file is empty.")).toEqual({ ok: false, message: "The file is empty." });
    expect(readCsvTable("a;b\n1;2\n", "")).toMatchObject({ ok: false, message: expect.stringContaining("semicolons") });
    const tooMany = ["product_key", ...Array.from({ length: CSV_UPLOAD_MAX_ROWS + 1 }, (_, index) => `p-${index}`)].join("\n");
    expect(readCsvTable(tooMany, "")).toMatchObject({ ok: false, message: expect.stringContaining("more than 5,000 rows") });
  });

  it("checks a product key once per file", () => {
    const seen = new Map<string, number>();
    expect(productKeyCell(" blaze-1 ", 2, seen)).toEqual({ ok: true, value: "blaze-1" });
    expect(productKeyCell("blaze-1", 3, seen)).toEqual({
      ok: false,
      message: "“blaze-1” is also on row 2: each product may be on one row only.",
    });
    expect(productKeyCell("", 4, seen)).toEqual({ ok: false, message: "product_key is empty." });
    expect(productKeyCell("+1", 5, seen)).toMatchObject({ ok: false, message: expect.stringContaining("formula") });
  });

  it("names the file without folders or control characters", () => {
    expect(uploadFileName("C:\\Users\\me\\prices.csv", "x.csv")).toBe("prices.csv");
    expect(uploadFileName("\u0000", "catalogue.csv")).toBe("catalogue.csv");
  });
});
