import { describe, expect, it } from "vitest";
import { CSV_UPLOAD_MAX_ROWS } from "~/utils/csv-upload";
import { parseCsv } from "~/utils/csv";
import { catalogCsvDocument, catalogImportSummary, parseCatalogFile, planCatalogImport, type CsvProduct, type ProductNow } from "./catalog-csv";

const GRILL: CsvProduct & { description: string } = {
  key: "blaze-1",
  brand: "blaze",
  model: "BLZ-1",
  title: "Blaze grill, 32 in",
  description: "",
  priceCents: 129_900,
  compareAtCents: null,
  salePriceCents: 99_905,
  saleStartsAt: new Date("2026-12-24T09:00:00Z"),
  saleEndsAt: null,
  published: true,
  nonReturnable: false,
  customMade: false,
  madeToOrder: true,
};
const now = (overrides: Partial<ProductNow> = {}): ReadonlyMap<string, ProductNow> =>
  new Map([["blaze-1", { ...GRILL, deskVersion: 3, ...overrides }]]);

function read(text: string) {
  const parsed = parseCatalogFile(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

describe("the catalogue CSV export", () => {
  it("writes dollars with cents, UTC minutes and yes/no, and reads back as no change", () => {
    const text = catalogCsvDocument([GRILL]);
    expect(text).toBe(
      "product_key,brand,model,title,price,compare_at_price,sale_price,sale_starts,sale_ends,published,non_returnable,custom,made_to_order\r\n" +
        'blaze-1,blaze,BLZ-1,"Blaze grill, 32 in",1299.00,,999.05,2026-12-24 09:00,,yes,no,no,yes\r\n',
    );
    const plan = planCatalogImport(read(text), now());
    expect(plan).toEqual({ rows: [{ row: 2, productKey: "blaze-1", title: GRILL.title, deskVersion: 3, changes: [] }], errors: [] });
  });

  it("never writes a cell a spreadsheet runs as a formula", () => {
    const parsed = parseCsv(catalogCsvDocument([{ ...GRILL, title: '=HYPERLINK("x")' }]));
    expect(parsed.ok && parsed.records[1]![3]).toBe(`'=HYPERLINK("x")`);
  });
});

describe("the catalogue CSV import", () => {
  it("changes only the columns the file has, each field with its value now and asked for, in cents", () => {
    const plan = planCatalogImport(read("product_key,Sale Price,PUBLISHED\nblaze-1,$899.5,no\n"), now());
    expect(plan.errors).toEqual([]);
    expect(plan.rows[0]!.changes).toEqual([
      { field: "salePriceCents", before: "99905", after: "89950" },
      { field: "published", before: "yes", after: "no" },
    ]);
    expect(catalogImportSummary(plan.rows)).toEqual({ products: 1, unchanged: 0, fields: 2 });
  });

  it("clears a sale with empty cells", () => {
    const plan = planCatalogImport(read("product_key,sale_price,sale_starts,sale_ends\nblaze-1,,,\n"), now());
    expect(plan.rows[0]!.changes.map((change) => [change.field, change.after])).toEqual([
      ["salePriceCents", null],
      ["saleStartsAt", null],
    ]);
  });

  it.each([
    ["price", "abc", "price (Price) must be an amount in dollars, like 1299.00."],
    ["price", "-5", "price (Price) cannot be negative."],
    ["price", "", "price (Price) is empty: every product has a price."],
    ["price", "=cmd|' /C calc'!A0", "price “=cmd|' /C calc'!A0” starts like a formula (=, +, -, @): formulas are not accepted."],
    ["sale_price", "@SUM(A1)", "sale_price “@SUM(A1)” starts like a formula (=, +, -, @): formulas are not accepted."],
    ["published", "maybe", "published (Published) must be yes or no, not “maybe”."],
    ["sale_ends", "2026-02-30", "sale_ends (Sale ends) must be a date and time in UTC, like 2026-12-24 09:00."],
  ])("refuses %s %j with the row's number and reason", (column, cell, message) => {
    const file = read(`product_key,${column}\nblaze-1,${cell.includes(",") ? `"${cell}"` : cell}\n`);
    expect(file.errors).toEqual([{ row: 2, message }]);
  });

  it("checks each row's values together by the desk's rules, and names unknown products", () => {
    const file = read(
      "product_key,price,sale_price,sale_starts,sale_ends\n" +
        "blaze-1,1299.00,1400.00,,\n" +
        "nobody-9,10.00,,,\n",
    );
    expect(planCatalogImport(file, now()).errors).toEqual([
      { row: 2, message: "blaze-1: The sale price must be lower than the price." },
      { row: 3, message: "There is no product “nobody-9”." },
    ]);
    const endsFirst = read("product_key,sale_starts,sale_ends\nblaze-1,2027-02-01,2027-01-01\n");
    expect(planCatalogImport(endsFirst, now()).errors).toEqual([{ row: 2, message: "blaze-1: The sale must end after it starts." }]);
  });

  it("refuses a product twice, a formula as product key, and counts rows as a spreadsheet does", () => {
    const file = read('product_key,price\n\nblaze-1,1.00\n"=cmd",2.00\nblaze-1,3.00\n');
    expect(file.errors).toEqual([
      { row: 4, message: "product_key “=cmd” starts like a formula (=, +, -, @): formulas are not accepted." },
      { row: 5, message: "“blaze-1” is also on row 3: each product may be on one row only." },
    ]);
  });

  it.each([
    ["", /The file is empty/],
    ["product_key,title\nblaze-1,x\n", /must be the header: product_key and one or more of price/],
    ["product_key;price\nblaze-1;1\n", /separated by semicolons/],
    ["product_key,price,price\nblaze-1,1,2\n", /names the column price twice/],
    ["product_key,price\n", /no product row/],
  ])("refuses a whole file that cannot be read: %j", (text, message) => {
    const parsed = parseCatalogFile(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toMatch(message);
  });

  it(`reads ${CSV_UPLOAD_MAX_ROWS} rows and refuses a file of 100,000`, () => {
    const rows = (count: number) => Array.from({ length: count }, (_, index) => `p-${index},1.00`);
    expect(read(["product_key,price", ...rows(CSV_UPLOAD_MAX_ROWS)].join("\n")).rows).toHaveLength(CSV_UPLOAD_MAX_ROWS);
    const tooMany = parseCatalogFile(["product_key,price", ...rows(100_000)].join("\n"));
    expect(tooMany).toEqual({ ok: false, message: "The file has more than 5,000 rows. Split it into files of at most 5,000 rows." });
  });
});
