import { describe, expect, it } from "vitest";
import {
  conflictMessage,
  decodeStockFile,
  importFileName,
  importSummary,
  parseCount,
  parseReason,
  parseStockFile,
  planStockImport,
  type StockFile,
  type StockNow,
} from "./stock-import";
import { CSV_UPLOAD_MAX_ROWS as STOCK_IMPORT_MAX_ROWS } from "~/utils/csv-upload";

const bytes = (text: string) => new TextEncoder().encode(text);

function read(text: string): StockFile {
  const parsed = parseStockFile(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

describe("a count typed or read from a file", () => {
  it.each([
    ["0", 0],
    [" 12 ", 12],
    ["007", 7],
    ["100000", 100_000],
  ])("%j is %d", (raw, count) => {
    expect(parseCount(raw)).toEqual({ ok: true, value: count });
  });

  it.each([
    ["12.5", /is not a whole number/],
    ["1,000", /is not a whole number/],
    ["1e3", /is not a whole number/],
    ["+5", /is not a whole number/],
    ["=1+1", /is not a whole number/],
    ["twelve", /is not a whole number/],
    ["-3", /is negative/],
    ["- 3", /is negative/],
    ["-0.5", /is negative/],
    ["100001", /is more than 100,000/],
    ["99999999999999999999", /is more than 100,000/],
    ["", /is empty/],
  ])("%j is refused: %s", (raw, message) => {
    const count = parseCount(raw);
    expect(count.ok).toBe(false);
    expect(!count.ok && count.message).toMatch(message);
  });
});

describe("a reason", () => {
  it("keeps words, turns control characters into spaces and refuses formulas and long ones", () => {
    expect(parseReason("  Counted\ton Monday ")).toEqual({ ok: true, value: "Counted on Monday" });
    expect(parseReason("")).toEqual({ ok: true, value: "" });
    for (const formula of ["=cmd|' /C calc'!A0", "+1", "-2", "@SUM(A1)", "\t=1", "\r=1"]) {
      expect(parseReason(formula), formula).toMatchObject({ ok: false, message: expect.stringContaining("formulas are not accepted") });
    }
    expect(parseReason("x".repeat(201))).toMatchObject({ ok: false, message: expect.stringContaining("at most 200") });
    expect(parseReason("x".repeat(200))).toMatchObject({ ok: true });
  });
});

describe("the uploaded file's bytes", () => {
  it("reads UTF-8, without its byte order mark", () => {
    expect(decodeStockFile(bytes("\uFEFFproduct_key,on_hand\nblaze-1,3\n"))).toEqual({
      ok: true,
      value: "product_key,on_hand\nblaze-1,3\n",
    });
    expect(decodeStockFile(bytes("product_key,on_hand,reason\nblaze-1,3,Zählung\n"))).toMatchObject({ ok: true });
  });

  it.each([
    ["an empty file", new Uint8Array(), /The file is empty/],
    ["an Excel workbook", Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), /spreadsheet workbook .* not a CSV file/],
    ["an old Excel file", Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1]), /not a CSV file/],
    ["UTF-16 text", Uint8Array.from([0xff, 0xfe, 0x70, 0x00]), /UTF-16/],
    ["a binary file", Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00]), /not a text file/],
    ["Windows-1252 text", Uint8Array.from([...bytes("product_key,on_hand,reason\nx,1,Z"), 0xe4, 0x68, 0x6c]), /not UTF-8/],
  ])("refuses %s with a message", (_name, file, message) => {
    const decoded = decodeStockFile(file);
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.message).toMatch(message);
  });

  it("names the file as the preview shows it: no folders, no control characters, at most 100 characters", () => {
    expect(importFileName("C:\\Users\\me\\counts.csv")).toBe("counts.csv");
    expect(importFileName("../../etc/passwd")).toBe("passwd");
    expect(importFileName("bad\u0000\nname.csv")).toBe("badname.csv");
    expect(importFileName("")).toBe("stock.csv");
    expect(importFileName(`${"a".repeat(150)}.csv`)).toHaveLength(100);
  });
});

describe("the file's rows", () => {
  it("reads the header in any order and spelling, skips blank lines and ignores other columns", () => {
    const file = read("Title,ON HAND,Product-Key,Reason,held\nA grill,3,blaze-1,Counted,0\n\n,,,,\nA cover,10,blaze-2,,1\r\n");
    expect(file).toEqual({
      rows: [
        { row: 2, productKey: "blaze-1", onHand: 3, reason: "Counted" },
        { row: 5, productKey: "blaze-2", onHand: 10, reason: null },
      ],
      errors: [],
      blank: 0,
    });
  });

  it("gives every bad row its spreadsheet row number and reason, and reads the rest", () => {
    const file = read(
      [
        "product_key,on_hand,reason",
        "blaze-1,12.5,", // 2
        "blaze-2,-3,", // 3
        "blaze-3,250000,", // 4
        "blaze-4,4,=HYPERLINK(1)", // 5
        "=cmd,4,", // 6
        ",4,", // 7
        "blaze-5,5,ok", // 8
        "blaze-5,6,again", // 9
        '"blaze-6",7,"two\nlines"', // 10 (one record over two lines)
        "blaze-7,8,", // 11
        "the_outdoor_plus-1,,", // 12: no count, left out
      ].join("\n"),
    );
    expect(file.rows).toEqual([
      { row: 8, productKey: "blaze-5", onHand: 5, reason: "ok" },
      { row: 10, productKey: "blaze-6", onHand: 7, reason: "two lines" },
      { row: 11, productKey: "blaze-7", onHand: 8, reason: null },
    ]);
    expect(file.blank).toBe(1);
    expect(file.errors).toEqual([
      { row: 2, message: "on_hand “12.5” is not a whole number: write digits only, e.g. 12." },
      { row: 3, message: "on_hand “-3” is negative: a count is 0 or more." },
      { row: 4, message: "on_hand “250000” is more than 100,000." },
      { row: 5, message: "The reason starts with “=”: formulas are not accepted." },
      { row: 6, message: "product_key “=cmd” starts like a formula (=, +, -, @): formulas are not accepted." },
      { row: 7, message: "product_key is empty." },
      { row: 9, message: "“blaze-5” is also on row 8: each product may be on one row only." },
    ]);
  });

  it.each([
    ["", /The file is empty/],
    ["\n\n", /The file is empty/],
    ["blaze-1,3\nblaze-2,4", /Row 1 must be the header product_key,on_hand/],
    ["product_key;on_hand\nblaze-1;3", /separated by semicolons/],
    ["product_key,on_hand,on_hand\nblaze-1,3,4", /names the column on_hand twice/],
    ["product_key,on_hand\n", /no row with a count/],
    ['product_key,on_hand\n"blaze-1,3\n', /Row 2 has a quoted cell that is never closed/],
  ])("refuses the whole file %j", (text, message) => {
    const parsed = parseStockFile(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toMatch(message);
  });

  it(`reads ${STOCK_IMPORT_MAX_ROWS} rows, and refuses one more`, () => {
    const rows = (count: number) => Array.from({ length: count }, (_, index) => `p-${index},${index % 50}`);
    expect(read(["product_key,on_hand", ...rows(STOCK_IMPORT_MAX_ROWS)].join("\n")).rows).toHaveLength(STOCK_IMPORT_MAX_ROWS);
    const tooMany = parseStockFile(["product_key,on_hand", ...rows(STOCK_IMPORT_MAX_ROWS + 1)].join("\n"));
    expect(tooMany).toMatchObject({ ok: false, message: expect.stringContaining("more than 5,000 rows") });
  });
});

describe("the preview's plan", () => {
  const stock = new Map<string, StockNow>([
    ["blaze-1", { title: "Blaze grill", policy: "tracked", onHand: 10, reserved: 0 }],
    ["blaze-2", { title: "Blaze cover", policy: "tracked", onHand: 4, reserved: 3 }],
    ["blaze-3", { title: "Blaze cart", policy: "tracked", onHand: 2, reserved: 0 }],
    ["the_outdoor_plus-1", { title: "Fire bowl", policy: "made-to-order", onHand: 0, reserved: 0 }],
  ]);

  it("compares each row with the count now, and names unknown, made-to-order and held rows", () => {
    const file = read(
      "product_key,on_hand,reason\nblaze-1,12,Delivery\nblaze-2,2,\nnope-1,5,\nthe_outdoor_plus-1,3,\nblaze-3,2,\nblaze-9,x,\n",
    );
    const plan = planStockImport(file, stock, "may.csv");
    expect(plan.rows).toEqual([
      { row: 2, productKey: "blaze-1", title: "Blaze grill", before: 10, after: 12, reason: "Delivery" },
      { row: 6, productKey: "blaze-3", title: "Blaze cart", before: 2, after: 2, reason: "CSV import may.csv" },
    ]);
    expect(plan.errors).toEqual([
      { row: 3, message: "3 of “blaze-2” are held by checkouts paying now: the count must be at least 3." },
      { row: 4, message: "There is no product “nope-1”." },
      { row: 5, message: "“the_outdoor_plus-1” is made to order: it has no count." },
      { row: 7, message: "on_hand “x” is not a whole number: write digits only, e.g. 12." },
    ]);
    expect(importSummary(plan.rows)).toEqual({ changes: 1, unchanged: 1, added: 2, removed: 0 });
  });

  it("names every row whose count moved since the preview, the first 20 of them", () => {
    const one = conflictMessage([{ row: 4, productKey: "blaze-1", message: "9 on hand now, 10 in the preview" }]);
    expect(one).toBe(
      "Nothing was changed: one count changed since this preview was made (row 4 (blaze-1): 9 on hand now, 10 in the preview). Upload the file again for a new preview.",
    );
    const many = conflictMessage(
      Array.from({ length: 25 }, (_, index) => ({ row: index + 2, productKey: `p-${index}`, message: "moved" })),
    );
    expect(many).toContain("25 counts changed");
    expect(many).toContain("row 21 (p-19): moved; and 5 more rows");
    expect(many).not.toContain("p-20)");
  });
});
