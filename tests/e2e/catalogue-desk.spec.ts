import { readFile } from "node:fs/promises";
import { csvDocument, csvLine, parseCsv } from "../../app/utils/csv";
import { expect, test } from "./fixtures";
import { expectNoSeriousAxeViolations } from "./support/accessibility";

/**
 * The catalogue desk from outside (issue 50), script on and off: the owner (the demo account) changes a
 * price and starts a sale; the product's page, a list and the cart show the sale price with the regular
 * price struck through; bad input is refused with its message and changes nothing; the change is in the
 * product's history; a hidden product's page is 404 and it leaves the search and the sitemap. And the CSV
 * round trip: one brand's prices downloaded, raised in the file, previewed, applied, seen by the shopper.
 * Each project has a product of its own: both run at once against one store.
 */

const PRODUCT = {
  "js-on": { key: "coyote-2889720", regular: "$679.00", sale: "$599.00", newPrice: "$689.00" },
  "js-off": { key: "coyote-2889722", regular: "$749.00", sale: "$649.00", newPrice: "$759.00" },
} as const;

test("an owner changes a price and starts a sale that shoppers see at once; bad input changes nothing; a hidden product is gone", async ({
  page,
  staff,
  javaScriptEnabled,
}, testInfo) => {
  test.slow();
  const product = PRODUCT[testInfo.project.name as keyof typeof PRODUCT];
  const dollars = (text: string) => text.replace("$", "");

  await staff.open(`/catalog/${product.key}`);
  const title = (await page.getByRole("heading", { level: 1 }).textContent())!.trim();
  if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);

  // A sale ending before it starts: refused with its message, nothing saved.
  await page.getByLabel("Price (US dollars)").fill(dollars(product.newPrice));
  await page.getByLabel("Sale price (optional)").fill(dollars(product.sale));
  await page.getByLabel("Sale starts (UTC; empty: at once)").fill("2027-02-01T00:00");
  await page.getByLabel("Sale ends (UTC; empty: until changed)").fill("2027-01-01T00:00");
  await page.getByRole("button", { name: "Save prices" }).click();
  await expect(page.getByTestId("staff-message")).toHaveText("The sale must end after it starts.");
  await staff.open(`/catalog/${product.key}`);
  await expect(page.getByTestId("catalog-change")).toHaveCount(0);

  // The new price with a sale running from now.
  await page.getByLabel("Price (US dollars)").fill(dollars(product.newPrice));
  await page.getByLabel("Sale price (optional)").fill(dollars(product.sale));
  await page.getByRole("button", { name: "Save prices" }).click();
  await expect(page.getByTestId("staff-message")).toContainText("Saved:");
  await expect(page.getByTestId("price-now")).toHaveText(`${product.sale} (sale price)`);
  await expect(page.getByTestId("catalog-change")).toHaveCount(2);
  await expect(page.getByTestId("catalog-history")).toContainText(product.newPrice);
  await expect(page.getByTestId("catalog-history")).toContainText("staff@example.com");

  // The shopper's page: the sale price, the regular price struck through.
  await page.goto(`/product/${product.key}`);
  const detail = page.locator(".product-detail");
  await expect(detail).toContainText(product.sale);
  await expect(detail.getByLabel(`Was ${product.newPrice}`, { exact: true })).toBeVisible();
  await page.locator(".buy-form").getByRole("button", { name: "ADD TO CART" }).click();
  await expect(page.getByTestId("cart-badge")).toHaveText(/\d+/);
  await page.goto("/cart");
  await expect(page.locator("main")).toContainText(product.sale);

  // Hidden: its page is not found, and search and the sitemap no longer have it.
  await staff.open(`/catalog/${product.key}`);
  await page.getByLabel(/^Hidden/).check();
  await page.getByRole("button", { name: "Save details" }).click();
  await expect(page.getByTestId("visibility")).toContainText("Hidden");
  const gone = await page.goto(`/product/${product.key}`);
  expect(gone?.status()).toBe(404);
  const sitemap = await page.request.get("/sitemap.xml");
  expect(await sitemap.text()).not.toContain(`/product/${product.key}<`);
  await page.goto(`/finding/${encodeURIComponent(title)}`);
  await expect(page.locator(`a[href="/product/${product.key}"]`)).toHaveCount(0);
});

/** Each project's brand for the CSV round trip: small brands no other end-to-end test reads a price of. */
const BRAND = { "js-on": "green_mountain", "js-off": "mont_alpi" } as const;

test("an owner downloads one brand's prices, raises them by a dollar in the file, previews every change and applies it with an audit row each", async ({
  page,
  staff,
}, testInfo) => {
  test.slow();
  const brand = BRAND[testInfo.project.name as keyof typeof BRAND];
  await staff.open(`/catalog?brand=${brand}`);
  const downloading = page.waitForEvent("download");
  await page.getByTestId("catalog-csv-link").click();
  const downloaded = await readFile((await (await downloading).path())!, "utf8");
  const parsed = parseCsv(downloaded);
  if (!parsed.ok) throw new Error(parsed.message);
  const [header, ...rows] = parsed.records.filter((record) => record.length > 1);
  expect(header!.slice(0, 5)).toEqual(["product_key", "brand", "model", "title", "price"]);
  expect(rows.length).toBeGreaterThan(5);
  expect(rows.every((row) => row[1] === brand)).toBe(true);
  const raised = (price: string) => {
    const cents = Math.round(Number(price) * 100) + 100;
    return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
  };
  const edited = csvDocument([csvLine(["product_key", "price"]), ...rows.map((row) => csvLine([row[0]!, raised(row[4]!)]))]);

  await staff.open("/catalog/import");
  await page.getByLabel("CSV file").setInputFiles({ name: `${brand}.csv`, mimeType: "text/csv", buffer: Buffer.from(edited) });
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Catalogue import preview: ${brand}.csv`);
  await expect(page.getByTestId("import-summary")).toHaveText(`${rows.length} products change (${rows.length} values).`);
  await expect(page.getByTestId("import-change")).toHaveCount(rows.length);

  await page.getByRole("button", { name: `Apply ${rows.length} products' changes` }).click();
  await expect(page.getByTestId("staff-message")).toContainText(`Applied: ${rows.length} products changed from ${brand}.csv`);
  await expect(page.getByTestId("apply-form")).toHaveCount(0);

  const [firstKey, , , , firstPrice] = rows[0]!;
  const newPrice = `$${Number(raised(firstPrice!)).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
  await page.goto(`/product/${firstKey}`);
  await expect(page.locator(".product-detail")).toContainText(newPrice);
  await staff.open(`/catalog/${firstKey}`);
  await expect(page.getByTestId("catalog-change")).toHaveCount(1);
  await expect(page.getByTestId("catalog-history")).toContainText(newPrice);
  await expect(page.getByTestId("catalog-history")).toContainText("(CSV import)");
});
