import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartCookieHeader, readCart } from "~/cart/cart-cookie.server";
import { createCartCheckout } from "~/checkout/checkout.server";
import { singleCheckoutAction } from "~/checkout/single-checkout.server";
import { checkouts, products, productStock } from "~/db/schema";
import { action as cartAction } from "~/routes/cart";
import { action as checkoutAction } from "~/routes/checkout";
import { seedStock } from "~/stock/stock.server";
import type { StoreRuntime } from "~/store-runtime";
import { createStoreHandler, type StoreHandler } from "../support/remix-handler";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, postRequest, storeOf, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

/**
 * Issue 49 on the storefront: what pages say of stock comes from the stock table, read per request (never
 * from a catalogue memo), and nothing beyond what is there can be put in the cart, bought with BUY NOW or
 * taken to payment. Products without a stock row (as most tests insert) stay unlimited.
 */
const GRILL = "blaze-9601";
const SPARE = "blaze-9602";
const FIRE_BOWL = "the_outdoor_plus-9603";
const SEASONING = "custom_product-LOVE-RUB-001";
const titleOf = (key: string) => `Test product ${key}`;
const customer = checkoutCustomer();

type FetchAnswer = { data: { ok: boolean; message?: string }; init: { status?: number } | null };

describe.each(testDatabaseKinds())("stock on the storefront on %s", (kind) => {
  let database: TestDatabase;
  let runtime: StoreRuntime;
  let store: StoreHandler;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // Product pages show a gallery: each has a picture.
    const pictured = (row: ReturnType<typeof testProduct>) => ({ ...row, otherImages: [row.image] });
    await database.db
      .insert(products)
      .values(
        [testProduct(GRILL, 250_000), testProduct(SPARE, 4_000), testProduct(FIRE_BOWL, 90_000), testProduct(SEASONING, 1599)].map(
          pictured,
        ),
      );
    expect(await seedStock(database.db, 50)).toBe(4);
    runtime = testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN });
    store = await createStoreHandler(runtime);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const setStock = (productKey: string, onHand: number) =>
    database.db.update(productStock).set({ onHand, reserved: 0 }).where(eq(productStock.productKey, productKey));
  const page = async (path: string, cookie?: string) => {
    const headers: Record<string, string> = { Host: new URL(TEST_ORIGIN).host, ...(cookie ? { Cookie: cookie } : {}) };
    const response = await store.handle(new Request(`${TEST_ORIGIN}${path}`, { headers }), testContext(runtime));
    expect(response.status).toBe(200);
    return response.text();
  };
  const jsonLdAvailability = (html: string) => /"availability":"(https:\/\/schema\.org\/\w+)"/.exec(html)?.[1];
  const description = (html: string) => /<meta name="description" content="([^"]*)"/.exec(html)?.[1];
  /** The card of a product on a list page, as its markup. */
  const cardOf = (html: string, key: string) =>
    [...html.matchAll(/<article class="product-card">(.*?)<\/article>/gs)]
      .map((match) => match[1])
      .find((card) => card.includes(`/product/${key}"`));
  const postCart = (fields: Record<string, string | number>, cookie?: string) =>
    cartAction({ request: postRequest("/cart", fields, cookie), params: {}, context: testContext(runtime) });
  const checkoutCount = async () => Number((await database.db.select({ n: count() }).from(checkouts))[0]?.n ?? 0);

  describe("the product page", () => {
    it("says In Stock with its 24-hour note while there are plenty, with ADD TO CART and BUY NOW", async () => {
      await setStock(GRILL, 50);
      const html = await page(`/product/${GRILL}`);
      expect(html).toContain(">In Stock</span>");
      expect(html).toContain("Leaves warehouse within 24 Hours · Free Shipping");
      expect(jsonLdAvailability(html)).toBe("https://schema.org/InStock");
      expect(description(html)).toContain(", in stock, ");
      expect(html).toMatch(/name="intent" value="buy"/);
      expect(html).toMatch(/id="detail-quantity"[^>]*max="50"|max="50"[^>]*id="detail-quantity"/);
      expect(html).not.toContain('action="/notify-me"');
    });

    it("says Only N left under the threshold, the quantity at most that", async () => {
      await setStock(GRILL, 3);
      const html = await page(`/product/${GRILL}`);
      expect(html).toContain(">Only 3 left</span>");
      expect(html).toContain("Leaves warehouse within 24 Hours");
      expect(jsonLdAvailability(html)).toBe("https://schema.org/LimitedAvailability");
      expect(description(html)).toContain(", only 3 left, ");
      expect(html).toMatch(/id="detail-quantity"[^>]*max="3"|max="3"[^>]*id="detail-quantity"/);
    });

    it("says Out of stock, offers Notify me and no way to buy", async () => {
      await setStock(GRILL, 0);
      const html = await page(`/product/${GRILL}`);
      expect(html).toContain(">Out of stock</span>");
      expect(html).not.toContain("Leaves warehouse within 24 Hours");
      expect(jsonLdAvailability(html)).toBe("https://schema.org/OutOfStock");
      expect(description(html)).toContain(", out of stock, ");
      expect(html).not.toMatch(/name="intent" value="buy"/);
      expect(html).not.toContain('id="detail-quantity"');
      expect(html).toContain('action="/notify-me"');
      expect(html).toContain(`name="productKey" value="${GRILL}"`);
    });

    it("gives a made-to-order product its lead time from the stock table", async () => {
      let html = await page(`/product/${FIRE_BOWL}`);
      expect(html).toContain(">Made to order</span>");
      expect(html).toContain("Leaves warehouse in 4 - 6 weeks");
      expect(jsonLdAvailability(html)).toBe("https://schema.org/MadeToOrder");
      expect(html).toMatch(/name="intent" value="buy"/);
      await database.db.update(productStock).set({ leadTime: "8 - 10 weeks" }).where(eq(productStock.productKey, FIRE_BOWL));
      html = await page(`/product/${FIRE_BOWL}`);
      expect(html).toContain("Leaves warehouse in 8 - 10 weeks");
      await database.db.update(productStock).set({ leadTime: "4 - 6 weeks" }).where(eq(productStock.productKey, FIRE_BOWL));
    });
  });

  describe("cards and search results", () => {
    it("say Out of stock with no ADD TO CART, Only N left, the lead time, and nothing more in plain stock", async () => {
      await setStock(GRILL, 0);
      await setStock(SPARE, 2);
      for (const path of ["/products/all/all", "/finding/Test%20product"]) {
        const html = await page(path);
        const out = cardOf(html, GRILL);
        expect(out, path).toContain("Out of stock");
        expect(out).not.toContain("ADD TO CART");
        expect(out).toContain("Compare");
        const low = cardOf(html, SPARE);
        expect(low).toContain("Only 2 left · Leaves Warehouse: 24 Hrs");
        expect(low).toContain("ADD TO CART");
        expect(cardOf(html, FIRE_BOWL)).toContain("Leaves Warehouse: 4 - 6 Weeks");
      }
      await setStock(SPARE, 40);
      const plain = cardOf(await page("/products/all/all"), SPARE);
      expect(plain).toContain("Leaves Warehouse: 24 Hrs");
      expect(plain).not.toContain("left");
    });
  });

  describe("the cart", () => {
    it("refuses more than is left with the product's name and count, and changes nothing (with script)", async () => {
      await setStock(GRILL, 2);
      const answer = (await postCart({ intent: "add", productKey: GRILL, quantity: 3, mode: "fetch" })) as unknown as FetchAnswer;
      expect(answer.init?.status).toBe(409);
      expect(answer.data).toEqual({ ok: false, message: `Only 2 of ${titleOf(GRILL)} are left.` });

      const added = (await postCart({ intent: "add", productKey: GRILL, quantity: 2, mode: "fetch" })) as unknown as FetchAnswer & {
        init: { headers: Record<string, string> };
      };
      expect(added.data.ok).toBe(true);
      const cookie = cookieFrom(added.init.headers["Set-Cookie"] ?? null);
      const again = (await postCart({ intent: "add", productKey: GRILL, quantity: 1, mode: "fetch" }, cookie)) as unknown as FetchAnswer & {
        init: { headers: Record<string, string> };
      };
      expect(again.data.message).toBe(`Only 2 of ${titleOf(GRILL)} are left, and your cart already has 2.`);
      const after = new Request(TEST_ORIGIN, { headers: { Cookie: cookieFrom(again.init.headers["Set-Cookie"] ?? null) } });
      expect(await readCart(runtime, after)).toEqual([{ productKey: GRILL, quantity: 2 }]);

      const raised = (await postCart({ intent: "quantity", position: 0, quantity: 5, mode: "fetch" }, cookie)) as unknown as FetchAnswer;
      expect(raised.data.message).toBe(`Only 2 of ${titleOf(GRILL)} are left.`);
      const lowered = (await postCart({ intent: "quantity", position: 0, quantity: 1, mode: "fetch" }, cookie)) as unknown as FetchAnswer;
      expect(lowered.data.ok).toBe(true);
    });

    it("without script, comes back to the cart, which says the same from the stock (never from the address)", async () => {
      await setStock(GRILL, 0);
      const response = (await postCart({
        intent: "add",
        productKey: GRILL,
        quantity: 1,
        mode: "document",
        redirectTo: `/product/${GRILL}`,
      })) as Response;
      expect(response.headers.get("Location")).toBe(`/cart?notice=stock&product=${GRILL}`);
      const cookie = cookieFrom(response.headers.get("Set-Cookie"));
      expect(await readCart(runtime, new Request(TEST_ORIGIN, { headers: { Cookie: cookie } }))).toEqual([]);
      const html = await page(`/cart?notice=stock&product=${GRILL}`, cookie);
      expect(html).toContain(`${titleOf(GRILL)} is out of stock.`);
    });

    it("takes any quantity of a product made to order", async () => {
      const answer = (await postCart({ intent: "add", productKey: FIRE_BOWL, quantity: 500, mode: "fetch" })) as unknown as FetchAnswer;
      expect(answer.data.ok).toBe(true);
    });

    it("says on the cart page and the checkout which lines the stock no longer covers, and records no checkout for them", async () => {
      await setStock(GRILL, 5);
      const request = new Request(TEST_ORIGIN);
      const cookie = cookieFrom(await cartCookieHeader(runtime, request, [{ productKey: GRILL, quantity: 4 }]));
      await setStock(GRILL, 1);
      const expected = `Only 1 of ${titleOf(GRILL)} is left, and your cart has 4: please lower the quantity.`;
      expect(await page("/cart", cookie)).toContain(expected);
      expect(await page("/checkout", cookie)).toContain(expected);
      const before = await checkoutCount();
      const refused = (await checkoutAction({
        request: postRequest("/checkout", { ...customer }, cookie),
        params: {},
        context: testContext(runtime),
      })) as unknown as { data: { formError: string }; init: { status: number } };
      expect(refused.init.status).toBe(409);
      expect(refused.data.formError).toBe(`Only 1 of ${titleOf(GRILL)} is left.`);
      expect(await checkoutCount()).toBe(before);
    });
  });

  describe("BUY NOW and the seasoning", () => {
    it("refuses BUY NOW beyond the stock on the product page, and records no checkout", async () => {
      await setStock(GRILL, 1);
      const answer = (await postCart({ intent: "buy", productKey: GRILL, quantity: "2", mode: "fetch" })) as unknown as FetchAnswer;
      expect(answer.init?.status).toBe(409);
      expect(answer.data.message).toBe(`Only 1 of ${titleOf(GRILL)} is left.`);

      // Without script BUY NOW opens the checkout, which says it and offers only what is left.
      const document = (await postCart({ intent: "buy", productKey: GRILL, quantity: "2", mode: "document" })) as Response;
      const location = document.headers.get("Location")!;
      expect(location).toBe(`/single-product-checkout?product=${GRILL}&quantity=2`);
      const html = await page(location);
      expect(html).toContain(`Only 1 of ${titleOf(GRILL)} is left.`);
      expect(html).not.toContain('<option value="2">');

      const before = await checkoutCount();
      const paid = (await singleCheckoutAction(
        runtime,
        postRequest("/single-product-checkout", { intent: "pay", product: GRILL, quantity: 2, ...customer }),
        "single",
        "198.51.100.7",
      )) as unknown as { data: { formError: string }; init: { status: number } };
      expect(paid.init.status).toBe(409);
      expect(paid.data.formError).toBe(`Only 1 of ${titleOf(GRILL)} is left.`);
      expect(await checkoutCount()).toBe(before);

      const one = await singleCheckoutAction(
        runtime,
        postRequest("/single-product-checkout", { intent: "pay", product: GRILL, quantity: 1, ...customer }),
        "single",
        "198.51.100.8",
      );
      expect(one).toBeInstanceOf(Response);
      expect(await checkoutCount()).toBe(before + 1);
    });

    it("shows the seasoning's stock on its page and refuses its checkout when it is gone", async () => {
      await setStock(SEASONING, 50);
      let html = await page("/custom-product");
      expect(html).toContain("In Stock");
      expect(html).toContain("Ships within 24 hours");
      expect(jsonLdAvailability(html)).toBe("https://schema.org/InStock");
      expect(html).toContain('action="/custom-product-checkout"');

      await setStock(SEASONING, 0);
      html = await page("/custom-product");
      expect(html).toContain(">Out of stock</p>");
      expect(jsonLdAvailability(html)).toBe("https://schema.org/OutOfStock");
      expect(html).not.toContain('action="/custom-product-checkout"');
      expect(html).toContain('action="/notify-me"');

      const before = await checkoutCount();
      const refused = (await singleCheckoutAction(
        runtime,
        postRequest("/custom-product-checkout", { intent: "pay", quantity: 1, ...customer }),
        "seasoning",
        "198.51.100.9",
      )) as unknown as { data: { formError: string }; init: { status: number } };
      expect(refused.init.status).toBe(409);
      expect(refused.data.formError).toBe(`${titleOf(SEASONING)} is out of stock.`);
      expect(await checkoutCount()).toBe(before);
    });
  });

  describe("the payment step", () => {
    it("says which line is short, from the stock, with payment_error=stock or without", async () => {
      await setStock(SPARE, 10);
      const checkout = await createCartCheckout(storeOf(database.db, runtime.config), [{ productKey: SPARE, quantity: 3 }], customer);
      let html = await page(`/checkout?checkout=${checkout.token}`);
      expect(html).not.toContain("is left");
      await setStock(SPARE, 1);
      html = await page(`/checkout?checkout=${checkout.token}`);
      expect(html).toContain(`Only 1 of “${titleOf(SPARE)}” are left (the order has 3). Please change your order before you pay.`);
      html = await page(`/checkout?checkout=${checkout.token}&payment_error=stock`);
      expect(html).toContain(`Only 1 of “${titleOf(SPARE)}” are left (the order has 3). Please change your order: nothing was charged.`);
      // The stock back: the refusal is still explained, in the checkout's own words.
      await setStock(SPARE, 10);
      html = await page(`/checkout?checkout=${checkout.token}&payment_error=stock`);
      expect(html).toContain("Part of this order was not in stock when you chose to pay");
    });
  });
});
