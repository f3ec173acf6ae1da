import { randomInt } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import sharp from "sharp";
import { expect, test } from "./fixtures";
import { expectNoSeriousAxeViolations } from "./support/accessibility";
import { startStoreServer, type StoreServer } from "./support/store-server";

/**
 * A customer returns one line of a delivered order with a photo, proven by the checkout email, with
 * script and without (issue 41). The order is written straight into a store's database: a second
 * store process on a PGlite folder of its own is started once (migrations, catalogue), stopped, given
 * a delivered order of a light catalogue product, and started again on the same folder.
 */

const EMAIL = "ada.returns@example.com";
const ORDER_ID_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
let store: StoreServer;
let dataDir: string;
let orderId: string;
let productTitle: string;

test.describe.configure({ timeout: 120_000 });

async function addDeliveredOrder(dir: string, id: string): Promise<string> {
  const db = new PGlite(dir, { extensions: { pg_trgm } });
  try {
    // A parcel-sized product of an ordinary brand: returnable for a change of mind, no freight photo rule.
    const { rows } = await db.query<{ key: string; title: string; model: string; brand: string; price_cents: number; image: string }>(
      `select key, title, model, brand, price_cents, image from products
        where brand not in ('the_outdoor_plus', 'custom_product')
          and exists (select 1 from jsonb_array_elements(specifications) s where (s->>'Weight') ~ '^[0-9]+ lbs' and split_part(s->>'Weight', ' ', 1)::int < 20)
        order by position limit 1`,
    );
    const product = rows[0];
    if (!product) throw new Error("no light product in the catalogue");
    const item = {
      productKey: product.key,
      title: product.title,
      model: product.model,
      brand: product.brand,
      imageUrl: product.image,
      unitPriceCents: Number(product.price_cents),
      quantity: 2,
    };
    const customer = {
      name: "Ada Lovelace",
      firstName: "Ada",
      lastName: "Lovelace",
      email: EMAIL,
      phone: "5125550100",
      address: "1 Main St",
      city: "Austin",
      state: "TX",
      postalCode: "78701",
      country: "US",
    };
    const total = item.unitPriceCents * 2;
    await db.query(
      `insert into orders (order_id, customer, items, subtotal_cents, shipping_cents, total_cents, payment_method, payment_reference, payment_provider, status, carrier, tracking_number, shipped_at, delivered_at)
       values ($1, $2, $3, $4, 0, $4, 'stripe', $5, 'test', 'Shipped', 'UPS', '1Z999AA10123456784', now() - interval '5 days', now() - interval '1 day')`,
      [id, JSON.stringify(customer), JSON.stringify([item]), total, `pay_e2e_${id}`],
    );
    return product.title;
  } finally {
    await db.close();
  }
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dataDir = mkdtempSync(path.join(tmpdir(), "store-returns-"));
  const first = await startStoreServer({ PGLITE_DIR: dataDir, RATE_LIMIT_SCALE: "100" });
  await first.stop();
  orderId = Array.from({ length: 10 }, () => ORDER_ID_ALPHABET[randomInt(ORDER_ID_ALPHABET.length)]).join("");
  productTitle = await addDeliveredOrder(dataDir, orderId);
  store = await startStoreServer({ PGLITE_DIR: dataDir, RATE_LIMIT_SCALE: "100" });
});

test.afterAll(async () => {
  await store?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const at = (pathname: string) => `${store.baseURL}${pathname}`;

test("a return of one line with a photo, requested with the checkout email", async ({ page, javaScriptEnabled }) => {
  const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#8a6d3b" } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Make: "E2ECam" } } })
    .toBuffer();

  await page.goto(at(`/order-status/${orderId}`));
  await page.getByRole("link", { name: "Request a return" }).click();
  await expect(page.getByRole("heading", { name: "Request a return", level: 1 })).toBeVisible();
  // The Order ID alone shows no form.
  const proof = page.getByRole("region", { name: "Confirm it is your order" });
  await expect(proof.getByLabel("Email address")).toBeVisible();
  await expect(page.getByRole("button", { name: "Request a return" })).toHaveCount(0);

  await proof.getByLabel("Email address").fill("someone.else@example.com");
  await proof.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("That email address does not match this order.")).toBeVisible();

  await proof.getByLabel("Email address").fill("Ada.Returns@example.com");
  await proof.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "What would you like to return?" })).toBeVisible();
  // axe runs in the page: with script only.
  if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);

  await page.getByLabel(new RegExp(`^${productTitle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`)).selectOption("1");
  await page.getByRole("radio", { name: "Changed my mind" }).check();
  await page.getByLabel("Note (optional)").fill("Too big for our patio.");
  await page.getByLabel(/^Photos/).setInputFiles({ name: "parcel.jpg", mimeType: "image/jpeg", buffer: photo });
  await page.getByRole("button", { name: "Request a return" }).click();

  const sent = page.getByTestId("request-sent");
  await expect(sent).toContainText(/Your return request R-[2-9A-HJKMNP-Z]{6} is in/);
  const number = /R-[2-9A-HJKMNP-Z]{6}/.exec((await sent.textContent()) ?? "")![0];
  await expect(page.getByTestId("order-request")).toContainText(number);
  await expect(page.getByTestId("request-status")).toHaveText("Received: we are checking it.");

  // Sent again with the browser (a reload of the posted page is a GET here; the form's own replay is covered by the integration test).
  await page.reload();
  await expect(page.getByTestId("order-request")).toHaveCount(1);

  // The same line cannot be opened twice.
  await page.getByLabel(new RegExp(`^${productTitle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`)).selectOption("1");
  await page.getByRole("radio", { name: "Changed my mind" }).check();
  await page.getByRole("button", { name: "Request a return" }).click();
  await expect(page.getByTestId("request-refusals")).toContainText(`already has an open request (${number})`);
  await expect(page.getByTestId("order-request")).toHaveCount(1);
});

test("the Return Policy's button leads to the order lookup", async ({ page }) => {
  await page.goto(at("/return-policy"));
  await page.getByRole("link", { name: "Request a return" }).click();
  await expect(page).toHaveURL(/\/order-status$/);
  await expect(page.getByLabel("Order ID")).toBeVisible();
});
