import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cartCookieHeader, readCart } from "~/cart/cart-cookie.server";
import { priceCart } from "~/cart/cart-view.server";
import { findProductMatches } from "~/chat/grounding.server";
import { replyToOption } from "~/chat/flow.server";
import {
  forgetCatalogCaches,
  getProductByKey,
  listProducts,
  randomProductPerBrand,
  randomProducts,
  relatedProducts,
  searchProducts,
  typeahead,
  variationSiblings,
} from "~/catalog/queries.server";
import { createCartCheckout, getCheckout } from "~/checkout/checkout.server";
import { singleCheckoutAction, singleCheckoutLoader } from "~/checkout/single-checkout.server";
import { checkouts, orders, paymentAttempts, products } from "~/db/schema";
import { compareProducts } from "~/guides/compare.server";
import { startPayment } from "~/payments/start-payment.server";
import { action as cartAction } from "~/routes/cart";
import { action as checkoutAction } from "~/routes/checkout";
import { drawingUrl } from "~/catalog/image-url";
import { stockDetail } from "~/stock/stock-desk.server";
import { seedStock } from "~/stock/stock.server";
import type { StoreRuntime } from "~/store-runtime";
import { createStoreHandler, type StoreHandler } from "../support/remix-handler";
import { checkoutCustomer, testOrder, testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, postRequest, storeOf, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

/**
 * What the storefront reads of the catalogue desk's columns (issue: catalogue desk): the price now from one
 * SQL expression (a sale price between its start and end, by the database's clock), the merchant's struck
 * "was" price, hidden products gone from every storefront read but kept by orders and staff pages, and a
 * checkout that keeps the price it was made with and says so on its payment step.
 */
const SALE = "blaze-9701";
const OTHER = "blaze-9702";
const HIDDEN = "blaze-9703";
const COMPARED = "blaze-9704";
const CATEGORIES = ["Home", "Grills", "Shelf Grills"];
const titleOf = (key: string) => `Test product ${key}`;
const customer = checkoutCustomer();

type FetchAnswer = { data: { ok: boolean; message?: string }; init: { status?: number; headers?: Record<string, string> } | null };

describe.each(testDatabaseKinds())("the storefront and the catalogue desk's columns on %s", (kind) => {
  let database: TestDatabase;
  let runtime: StoreRuntime;
  let store: StoreHandler;
  let address = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const row = (key: string, priceCents: number, model: string) => ({
      ...testProduct(key, priceCents, { categories: CATEGORIES }),
      model,
      otherImages: ["/images/placeholder.svg"],
    });
    await database.db
      .insert(products)
      .values([
        row(SALE, 200_000, "BLZ-SHELF-NG"),
        row(OTHER, 150_000, "BLZ-OTHER-NG"),
        row(HIDDEN, 90_000, "BLZ-SHELF-LP"),
        row(COMPARED, 100_000, "BLZ-COMPARED-NG"),
      ]);
    await seedStock(database.db, 50);
    runtime = testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN });
    store = await createStoreHandler(runtime);
  });
  afterAll(async () => {
    await database?.dispose();
  });
  beforeEach(async () => {
    // Every test starts from the catalogue as loaded: no sale, no compare-at price, everything shown.
    await database.db
      .update(products)
      .set({ salePriceCents: null, saleStartsAt: null, saleEndsAt: null, compareAtCents: null, published: true });
    forgetCatalogCaches(database.db);
  });

  /** A change as the desk makes it, straight in SQL; the memos are forgotten as the desk's real invalidation will. */
  async function change(key: string, values: Partial<typeof products.$inferInsert> | Record<string, unknown>) {
    await database.db.update(products).set(values).where(eq(products.key, key));
    forgetCatalogCaches(database.db);
  }
  const runningSale = (salePriceCents: number) => ({
    salePriceCents,
    saleStartsAt: sql`now() - interval '1 hour'`,
    saleEndsAt: sql`now() + interval '1 hour'`,
  });

  const page = async (path: string, { cookie, status = 200 }: { cookie?: string; status?: number } = {}) => {
    const headers: Record<string, string> = { Host: new URL(TEST_ORIGIN).host, ...(cookie ? { Cookie: cookie } : {}) };
    const response = await store.handle(new Request(`${TEST_ORIGIN}${path}`, { headers }), testContext(runtime));
    expect(response.status, path).toBe(status);
    return response.text();
  };
  const cardOf = (html: string, key: string) =>
    [...html.matchAll(/<article class="product-card">(.*?)<\/article>/gs)]
      .map((match) => match[1])
      .find((card) => card.includes(`/product/${key}"`));
  const jsonLdPrice = (html: string) => /"price":"([\d.]+)"/.exec(html)?.[1];
  const SALE_LABEL = /class="sale-label">Sale<span class="visually-hidden"> price<\/span>/;
  const postCart = (fields: Record<string, string | number>, cookie?: string) =>
    cartAction({ request: postRequest("/cart", fields, cookie), params: {}, context: testContext(runtime) });
  const cartCookie = async (lines: { productKey: string; quantity: number }[]) =>
    cookieFrom(await cartCookieHeader(runtime, new Request(TEST_ORIGIN), lines));
  const checkoutCount = async () => Number((await database.db.select({ n: count() }).from(checkouts))[0]?.n ?? 0);
  const nextAddress = () => `198.51.100.${(address += 1)}`;

  describe("a sale running now", () => {
    it("is the price of every storefront read, the regular price struck beside it with a Sale label", async () => {
      expect((await findProductMatches(database.db, "test product under $1,600")).matches.map((match) => match.key)).not.toContain(SALE);
      await change(SALE, runningSale(150_000));

      expect(await getProductByKey(database.db, SALE)).toMatchObject({ priceCents: 150_000, wasCents: 200_000, onSale: true });
      expect(await getProductByKey(database.db, OTHER)).toMatchObject({ priceCents: 150_000, wasCents: null, onSale: false });
      const listed = (await listProducts(database.db, { brand: "all", category: "all", page: 1 })).products.find((p) => p.key === SALE);
      expect(listed).toMatchObject({ priceCents: 150_000, wasCents: 200_000, onSale: true });
      const found = (await searchProducts(database.db, "Test product")).products.find((p) => p.key === SALE);
      expect(found).toMatchObject({ priceCents: 150_000, wasCents: 200_000 });
      expect((await typeahead(database.db, "Test product")).find(({ product }) => product.key === SALE)?.product.priceCents).toBe(150_000);
      expect((await randomProducts(database.db, 10)).find((p) => p.key === SALE)).toMatchObject({ priceCents: 150_000, wasCents: 200_000 });
      expect((await randomProductPerBrand(database.db)).every((p) => typeof p.priceCents === "number")).toBe(true);

      // The product page: the sale price, the regular price struck, the label, the JSON-LD offer.
      const html = await page(`/product/${SALE}`);
      expect(html).toContain('aria-label="Was $2,000.00"');
      expect(html).toContain("$1,500.00");
      expect(html).toMatch(SALE_LABEL);
      expect(jsonLdPrice(html)).toBe("1500.00");
      // The card on a list page and in search results.
      for (const path of ["/products/all/all", "/finding/Test%20product"]) {
        const card = cardOf(await page(path), SALE);
        expect(card, path).toContain('aria-label="Was $2,000.00"');
        expect(card).toContain("$1,500.00");
        expect(card).toMatch(SALE_LABEL);
        // A product the merchant has not priced keeps the spec's factor (1.12 on the card).
        expect(cardOf(await page(path), OTHER)).toContain('aria-label="Was $1,680.00"');
        expect(cardOf(await page(path), OTHER)).not.toMatch(SALE_LABEL);
      }

      // The cart and the checkouts charge it.
      const priced = await priceCart(database.db, [{ productKey: SALE, quantity: 2 }]);
      expect(priced.lines[0]).toMatchObject({ unitPriceCents: 150_000, lineTotalCents: 300_000 });
      const checkout = await createCartCheckout(storeOf(database.db, runtime.config), [{ productKey: SALE, quantity: 1 }], customer);
      expect(checkout.items[0]).toMatchObject({ unitPriceCents: 150_000 });
      expect(checkout.subtotalCents).toBe(150_000);
      const single = (await singleCheckoutLoader(
        runtime,
        new Request(`${TEST_ORIGIN}/single-product-checkout?product=${SALE}`),
        "single",
      )) as {
        totals: { unitPriceCents: number };
      };
      expect(single.totals.unitPriceCents).toBe(150_000);

      // The chat names and filters by the price now: under $1,600 finds the grill on sale, not the one at $2,000 without.
      const cheap = await findProductMatches(database.db, "test product under $1,600");
      expect(cheap.matches.map((match) => match.key)).toContain(SALE);
      expect(cheap.matches.find((match) => match.key === SALE)?.priceCents).toBe(150_000);
      const reply = await replyToOption(database.db, `product:${SALE}`, {
        store: { name: "Store", phone: "(877) 555-0142", email: "s@example.com" },
      });
      expect(reply?.reply.text).toContain("It costs $1,500.00.");
    });

    it("strikes the compare-at price instead when it is above the regular price", async () => {
      await change(SALE, { ...runningSale(150_000), compareAtCents: 260_000 });
      expect(await getProductByKey(database.db, SALE)).toMatchObject({ priceCents: 150_000, wasCents: 260_000, onSale: true });
    });

    it("ends at its end and has not begun before its start, by the database's clock", async () => {
      await change(SALE, {
        salePriceCents: 150_000,
        saleStartsAt: sql`now() - interval '2 hours'`,
        saleEndsAt: sql`now() - interval '1 minute'`,
      });
      expect(await getProductByKey(database.db, SALE)).toMatchObject({ priceCents: 200_000, wasCents: null, onSale: false });
      const html = await page(`/product/${SALE}`);
      // The spec's factor again (1.02 on the product page), no label.
      expect(html).toContain('aria-label="Was $2,040.00"');
      expect(html).not.toMatch(SALE_LABEL);
      expect(jsonLdPrice(html)).toBe("2000.00");
      expect((await priceCart(database.db, [{ productKey: SALE, quantity: 1 }])).lines[0]?.unitPriceCents).toBe(200_000);

      await change(SALE, { salePriceCents: 150_000, saleStartsAt: sql`now() + interval '1 hour'`, saleEndsAt: null });
      expect(await getProductByKey(database.db, SALE)).toMatchObject({ priceCents: 200_000, onSale: false });
      // No end: the sale runs until changed.
      await change(SALE, { salePriceCents: 150_000, saleStartsAt: null, saleEndsAt: null });
      expect(await getProductByKey(database.db, SALE)).toMatchObject({ priceCents: 150_000, wasCents: 200_000, onSale: true });
    });
  });

  describe("a compare-at price without a sale", () => {
    it("is struck on the card and the product page in place of the factor price, with no Sale label", async () => {
      await change(COMPARED, { compareAtCents: 125_000 });
      expect(await getProductByKey(database.db, COMPARED)).toMatchObject({ priceCents: 100_000, wasCents: 125_000, onSale: false });
      const html = await page(`/product/${COMPARED}`);
      expect(html).toContain('aria-label="Was $1,250.00"');
      expect(html).not.toMatch(SALE_LABEL);
      const card = cardOf(await page("/products/all/all"), COMPARED);
      expect(card).toContain('aria-label="Was $1,250.00"');
      expect(card).not.toMatch(SALE_LABEL);
      // One at or below the price says nothing: the factor price is struck.
      await change(COMPARED, { compareAtCents: 100_000 });
      expect(await getProductByKey(database.db, COMPARED)).toMatchObject({ wasCents: null });
      expect(await page(`/product/${COMPARED}`)).toContain('aria-label="Was $1,020.00"');
    });
  });

  describe("a hidden product", () => {
    it("answers 404 with the store's not-found page and leaves every list, search, carousel, guide, the sitemap and the chat", async () => {
      const siblingsBefore = await variationSiblings(database.db, (await getProductByKey(database.db, SALE))!);
      expect(siblingsBefore.map((p) => p.key)).toContain(HIDDEN);
      expect(await page("/sitemap.xml")).toContain(`/product/${HIDDEN}<`);
      await change(HIDDEN, { published: false });

      const notFound = await page(`/product/${HIDDEN}`, { status: 404 });
      expect(notFound).toContain("Product not found");
      expect(await getProductByKey(database.db, HIDDEN)).toBeNull();

      const keys = (list: readonly { key: string }[]) => list.map((p) => p.key);
      expect(keys((await listProducts(database.db, { brand: "all", category: "all", page: 1 })).products)).not.toContain(HIDDEN);
      expect((await listProducts(database.db, { brand: "blaze", category: "all", page: 1 })).total).toBe(3);
      expect(keys((await searchProducts(database.db, "Test product")).products)).not.toContain(HIDDEN);
      expect(keys((await searchProducts(database.db, "BLZ-SHELF-LP")).products)).toEqual([]);
      expect((await typeahead(database.db, "Test product")).map(({ product }) => product.key)).not.toContain(HIDDEN);
      expect(keys(await relatedProducts(database.db, { categories: ["Shelf Grills"], excludeKey: SALE, limit: 15 }))).toEqual(
        expect.not.arrayContaining([HIDDEN]),
      );
      expect(keys(await relatedProducts(database.db, { categories: ["Shelf Grills"], excludeKey: SALE, limit: 15 }))).toHaveLength(2);
      expect(keys(await randomProducts(database.db, 10))).not.toContain(HIDDEN);
      expect(keys(await randomProducts(database.db, 10))).toHaveLength(3);
      expect(keys(await variationSiblings(database.db, (await getProductByKey(database.db, SALE))!))).not.toContain(HIDDEN);
      expect(keys(await compareProducts(database.db, [HIDDEN, SALE]))).toEqual([SALE]);
      for (const path of ["/products/all/all", "/finding/Test%20product", `/product/${SALE}`, "/sitemap.xml"]) {
        expect(await page(path), path).not.toContain(`/product/${HIDDEN}`);
      }
      expect(await page("/sitemap.xml")).toContain(`/product/${SALE}<`);
      const suggestions = await store.handle(new Request(`${TEST_ORIGIN}/search-suggestions?q=Test%20product`), testContext(runtime));
      expect(await suggestions.text()).not.toContain(HIDDEN);

      // The chat's grounding and its product answers.
      const matches = await findProductMatches(database.db, "test product");
      expect(matches.matches.map((match) => match.key)).not.toContain(HIDDEN);
      expect(matches.total).toBe(3);
      const deps = { store: { name: "Store", phone: "(877) 555-0142", email: "s@example.com" } };
      expect(await replyToOption(database.db, `product:${HIDDEN}`, deps)).toBeNull();
      const brand = await replyToOption(database.db, "brand:blaze", deps);
      expect(brand?.reply.options?.map((option) => option.value)).not.toContain(`product:${HIDDEN}`);

      // Staff pages still see it; its images still answer (carts and orders show them).
      expect(await stockDetail(database.db, HIDDEN)).not.toBeNull();
      const drawing = await store.handle(new Request(`${TEST_ORIGIN}${drawingUrl("blaze", "9703", 1)}`), testContext(runtime));
      expect(drawing.status).toBe(200);
      expect(drawing.headers.get("Content-Type")).toContain("svg");
    });

    it("cannot be added to the cart: refused with a clear message, the cart unchanged", async () => {
      await change(HIDDEN, { published: false });
      const fetched = (await postCart({ intent: "add", productKey: HIDDEN, quantity: 1, mode: "fetch" })) as unknown as FetchAnswer;
      expect(fetched.init?.status).toBe(400);
      expect(fetched.data).toEqual({ ok: false, message: "That product is no longer available." });

      const cookie = await cartCookie([{ productKey: SALE, quantity: 1 }]);
      const document = (await postCart(
        { intent: "add", productKey: HIDDEN, quantity: 1, mode: "document", redirectTo: `/product/${SALE}` },
        cookie,
      )) as Response;
      expect(document.headers.get("Location")).toBe("/cart?notice=unavailable");
      const after = cookieFrom(document.headers.get("Set-Cookie"));
      expect(await readCart(runtime, new Request(TEST_ORIGIN, { headers: { Cookie: after } }))).toEqual([
        { productKey: SALE, quantity: 1 },
      ]);
      expect(await page("/cart?notice=unavailable", { cookie: after })).toContain("That product is no longer available.");

      // BUY NOW of it opens no checkout either.
      const before = await checkoutCount();
      const bought = (await singleCheckoutAction(
        runtime,
        postRequest("/single-product-checkout", { intent: "pay", product: HIDDEN, quantity: 1, ...customer }),
        "single",
        nextAddress(),
      )) as unknown as { data: { message: string }; init: { status: number } };
      expect(bought.init.status).toBe(404);
      expect(bought.data.message).toBe("This product is no longer available.");
      expect(await checkoutCount()).toBe(before);
    });

    it("already in a cart: shown as no longer available, out of the totals, and refused at checkout by name", async () => {
      const cookie = await cartCookie([
        { productKey: SALE, quantity: 1 },
        { productKey: HIDDEN, quantity: 2 },
      ]);
      await change(HIDDEN, { published: false });
      const priced = await priceCart(database.db, await readCart(runtime, new Request(TEST_ORIGIN, { headers: { Cookie: cookie } })));
      expect(priced.lines.map((line) => line.productKey)).toEqual([SALE]);
      expect(priced.unavailable).toMatchObject([{ productKey: HIDDEN, position: 1, quantity: 2, title: titleOf(HIDDEN) }]);
      expect(priced.subtotalCents).toBe(200_000);

      const message = `${titleOf(HIDDEN)} is no longer available: please remove it from your cart.`;
      const cart = await page("/cart", { cookie });
      expect(cart).toContain("No longer available");
      expect(cart).toContain(message);
      expect(cart).toContain(`aria-label="Remove ${titleOf(HIDDEN)}"`);
      expect(cart).not.toContain(`href="/product/${HIDDEN}"`);
      expect(await page("/checkout", { cookie })).toContain(message);

      const before = await checkoutCount();
      const refused = (await checkoutAction({
        request: postRequest("/checkout", { ...customer }, cookie),
        params: {},
        context: testContext(runtime, { clientAddress: nextAddress() }),
      })) as unknown as { data: { formError: string }; init: { status: number } };
      expect(refused.init.status).toBe(409);
      expect(refused.data.formError).toBe(message);
      expect(await checkoutCount()).toBe(before);
      await expect(
        createCartCheckout(storeOf(database.db, runtime.config), [{ productKey: HIDDEN, quantity: 1 }], customer),
      ).rejects.toThrow(message);

      // Removed, the rest checks out.
      const removed = (await postCart({ intent: "remove", position: 1, mode: "fetch" }, cookie)) as unknown as FetchAnswer;
      const left = cookieFrom(removed.init?.headers?.["Set-Cookie"] ?? null);
      const accepted = (await checkoutAction({
        request: postRequest("/checkout", { ...customer }, left),
        params: {},
        context: testContext(runtime, { clientAddress: nextAddress() }),
      })) as Response;
      expect(accepted.status).toBe(302);
    });

    it("in a pending checkout: its payment step says so and no payment starts; an earlier order keeps its line", async () => {
      const config = runtime.config;
      const checkout = await createCartCheckout(storeOf(database.db, config), [{ productKey: HIDDEN, quantity: 1 }], customer);
      const [order] = await database.db
        .insert(orders)
        .values(
          testOrder({
            items: [
              {
                productKey: HIDDEN,
                title: titleOf(HIDDEN),
                model: "BLZ-SHELF-LP",
                brand: "blaze",
                imageUrl: "/images/placeholder.svg",
                unitPriceCents: 90_000,
                quantity: 1,
              },
            ],
          }),
        )
        .returning();
      await change(HIDDEN, { published: false });

      const html = await page(`/checkout?checkout=${checkout.token}`);
      expect(html).toContain(`“${titleOf(HIDDEN)}” is no longer available. Please change your order before you pay.`);
      const started = await startPayment(storeOf(database.db, config), {
        checkout: (await getCheckout(database.db, checkout.token))!,
        method: "stripe",
      });
      expect(started).toEqual({
        status: "product-unavailable",
        message: `“${titleOf(HIDDEN)}” is no longer available. Please change your order: nothing was charged.`,
      });
      const attempts = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutToken, checkout.token));
      expect(attempts).toEqual([]);
      const posted = await store.handle(
        new Request(`${TEST_ORIGIN}/payments/start`, {
          method: "POST",
          body: new URLSearchParams({ checkout: checkout.token, method: "stripe" }),
          headers: { Host: new URL(TEST_ORIGIN).host, Origin: TEST_ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
        }),
        testContext(runtime, { clientAddress: nextAddress() }),
      );
      expect(posted.headers.get("Location")).toContain(`checkout=${checkout.token}&payment_error=product`);
      expect(await page(`/checkout?checkout=${checkout.token}&payment_error=product`)).toContain(
        `“${titleOf(HIDDEN)}” is no longer available. Please change your order: nothing was charged.`,
      );

      // The order placed before still opens, with its line as it was bought.
      const status = await page(`/order-status/${order!.orderId}`);
      expect(status).toContain(titleOf(HIDDEN));
    });
  });

  describe("a checkout made before a price change", () => {
    it("keeps its price, charges its own total and says the price now on its payment step", async () => {
      const config = runtime.config;
      const checkout = await createCartCheckout(storeOf(database.db, config), [{ productKey: OTHER, quantity: 1 }], customer);
      expect(checkout.items[0]?.unitPriceCents).toBe(150_000);
      expect(await page(`/checkout?checkout=${checkout.token}`)).not.toContain("after this checkout was made");

      await change(OTHER, runningSale(120_000));
      const notice = `The price of ${titleOf(OTHER)} changed to $1,200.00 after this checkout was made. This checkout keeps $1,500.00.`;
      const html = await page(`/checkout?checkout=${checkout.token}`);
      expect(html).toContain(notice);
      expect(html).toMatch(
        new RegExp(`data-testid="payment-amount">\\$${(checkout.totalCents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}<`),
      );

      const started = await startPayment(storeOf(database.db, config), {
        checkout: (await getCheckout(database.db, checkout.token))!,
        method: "stripe",
      });
      expect(started.status).toBe("started");
      const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.checkoutToken, checkout.token));
      expect(attempt?.amountCents).toBe(checkout.totalCents);

      // The sale over, the price is the checkout's again: nothing to say.
      await change(OTHER, { salePriceCents: null });
      expect(await page(`/checkout?checkout=${checkout.token}`)).not.toContain("after this checkout was made");
    });

    it("says the same on a BUY NOW checkout's payment step, without script", async () => {
      const made = (await singleCheckoutAction(
        runtime,
        postRequest("/single-product-checkout", { intent: "pay", product: SALE, quantity: 1, ...customer }),
        "single",
        nextAddress(),
      )) as Response;
      const location = made.headers.get("Location")!;
      expect(location).toMatch(/^\/single-product-checkout\?checkout=/);
      expect(await page(location)).not.toContain("after this checkout was made");
      await change(SALE, runningSale(175_000));
      expect(await page(location)).toContain(
        `The price of ${titleOf(SALE)} changed to $1,750.00 after this checkout was made. This checkout keeps $2,000.00.`,
      );
    });
  });
});
