import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { readCatalogFiles } from "~/catalog/catalog-files.server";
import { announceCatalogChange, watchCatalog } from "~/catalog/catalog-changes.server";
import { changeProducts } from "~/catalog/desk/catalog-desk.server";
import { loadCatalogIfChanged } from "~/catalog/load.server";
import { productKey } from "~/catalog/product";
import { catalogChanges, productDescriptions, products } from "~/db/schema";
import { action as productAction, loader as productLoader } from "~/routes/_staff.catalog.$productKey";
import { loader as deskLoader } from "~/routes/_staff.catalog._index";
import { createStaffAccount } from "~/staff/accounts.server";
import { OWNER_ONLY } from "~/staff/roles";
import type { StoreRuntime } from "~/store-runtime";
import { FORM_EXPIRED } from "~/staff/view";
import { testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { formData, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";
import { callRoute, type RouteFn, type RouteOutcome } from "../support/route-outcome";
import { signInThroughLogin } from "../support/staff-sign-in";

/**
 * The catalogue desk (`/catalog`): an owner changes a price and starts a sale, a staff account is refused
 * prices (403) but edits details and hides a product; bad numbers, a sale ending before it starts, a stale
 * page and a missing token change nothing; every change is audited; a catalogue reload keeps the desk's
 * values; and a change, or a sale's start, reaches every listening process.
 */
const OWNER = "owner.desk@example.com";
const CLERK = "clerk.desk@example.com";
const PASSWORD = "Correct-Horse-Battery-50";
const GRILL = "blaze-9501";
const COVER = "blaze-9502";

let runtime: StoreRuntime;
const call = (fn: RouteFn, request: Request, params: Record<string, string> = {}): Promise<RouteOutcome> =>
  callRoute(fn, request, testContext(runtime, { clientAddress: "192.0.2.50" }), params);
const get = (path: string, cookie?: string) => new Request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
const post = (path: string, body: FormData, cookie?: string) =>
  new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body, headers: cookie ? { Cookie: cookie } : {} });
const messageOf = (outcome: RouteOutcome) => (outcome.data?.flash as { message?: string } | undefined)?.message ?? "";

describe.each(testDatabaseKinds())("the catalogue desk on %s", (kind) => {
  let database: TestDatabase;
  let owner: { cookie: string; csrf: string };
  let clerk: { cookie: string; csrf: string };

  const signIn = (email: string) =>
    signInThroughLogin(call, { email, password: PASSWORD, path: "/catalog", landing: deskLoader as RouteFn });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN });
    await createStaffAccount(database.db, { email: OWNER, password: PASSWORD, role: "owner" });
    await createStaffAccount(database.db, { email: CLERK, password: PASSWORD, role: "staff" });
    owner = await signIn(OWNER);
    clerk = await signIn(CLERK);
  }, 60_000);
  afterAll(async () => {
    await database?.dispose();
  });
  beforeEach(async () => {
    await database.db.delete(catalogChanges);
    await database.db.delete(products);
    await database.db.insert(products).values([
      { ...testProduct(GRILL, 250_000), title: "Blaze Premium LTE 32 grill" },
      { ...testProduct(COVER, 4_000), title: "Grill cover deluxe" },
    ]);
  });

  const row = async (key = GRILL) => (await database.db.select().from(products).where(eq(products.key, key)))[0]!;
  const audit = (key = GRILL) => database.db.select().from(catalogChanges).where(eq(catalogChanges.productKey, key));
  const prices = (who: { cookie: string; csrf: string }, values: Record<string, string | number>, version = 0) =>
    call(
      productAction as RouteFn,
      post(`/catalog/${GRILL}`, formData({ csrf: who.csrf, intent: "prices", version, priceCents: "2500.00", ...values }), who.cookie),
      { productKey: GRILL },
    );
  const details = (who: { cookie: string; csrf: string }, values: Record<string, string | number>, version = 0) =>
    call(
      productAction as RouteFn,
      post(
        `/catalog/${GRILL}`,
        formData({
          csrf: who.csrf,
          intent: "details",
          version,
          title: "Blaze Premium LTE 32 grill",
          description: "A test product.",
          visibility: "published",
          ...values,
        }),
        who.cookie,
      ),
      { productKey: GRILL },
    );

  it("lets an owner change the price and start a sale, audited field by field", async () => {
    const saved = await prices(owner, {
      priceCents: "$2,399.00",
      salePriceCents: "1999.5",
      saleStartsAt: "2026-01-01T00:00",
      saleEndsAt: "2999-01-01 00:00",
    });
    expect(saved.status, messageOf(saved)).toBe(303);
    const now = await row();
    expect(now).toMatchObject({ priceCents: 239_900, salePriceCents: 199_950, deskVersion: 1 });
    expect(now.saleStartsAt?.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(now.deskFields.sort()).toEqual(["priceCents", "saleEndsAt", "salePriceCents", "saleStartsAt"]);
    const changes = await audit();
    expect(changes.map((change) => [change.field, change.oldValue, change.newValue, change.staffEmail, change.source]).sort()).toEqual(
      [
        ["priceCents", "250000", "239900", OWNER, "desk"],
        ["saleEndsAt", null, "2999-01-01T00:00:00.000Z", OWNER, "desk"],
        ["salePriceCents", null, "199950", OWNER, "desk"],
        ["saleStartsAt", null, "2026-01-01T00:00:00.000Z", OWNER, "desk"],
      ].sort(),
    );
    const page = await call(productLoader as RouteFn, get(`/catalog/${GRILL}`, owner.cookie), { productKey: GRILL });
    expect(page.data).toMatchObject({ mayPrice: true, row: { saleRunsNow: true } });
    expect((page.data!.history as unknown[]).length).toBe(4);
  });

  it("refuses a staff account's price change with 403 and changes nothing, but lets it edit details and hide a product", async () => {
    const refused = await prices(clerk, { priceCents: "1.00" });
    expect(refused.status).toBe(403);
    expect(messageOf(refused)).toBe(OWNER_ONLY.prices);
    expect(await row()).toMatchObject({ priceCents: 250_000, deskVersion: 0 });
    expect(await audit()).toEqual([]);
    const page = await call(productLoader as RouteFn, get(`/catalog/${GRILL}`, clerk.cookie), { productKey: GRILL });
    expect(page.data).toMatchObject({ mayPrice: false });

    const hidden = await details(clerk, { title: "Blaze LTE 32", visibility: "hidden", nonReturnable: "on" });
    expect(hidden.status, messageOf(hidden)).toBe(303);
    expect(await row()).toMatchObject({ title: "Blaze LTE 32", published: false, nonReturnable: true, customMade: false, deskVersion: 1 });
    expect((await audit()).map((change) => change.field).sort()).toEqual(["nonReturnable", "published", "title"]);
  });

  it("refuses hostile values with a clear message and changes nothing", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ priceCents: "abc" }, "The price must be an amount in dollars, like 1299.00."],
      [{ priceCents: "-5" }, "The price cannot be negative."],
      [{ priceCents: "0" }, "The price must be more than $0.00."],
      [{ priceCents: "12.345" }, "The price must be an amount in dollars, like 1299.00."],
      [{ priceCents: "=cmd|' /C calc'!A0" }, "The price must be an amount in dollars, like 1299.00."],
      [{ priceCents: "99999999" }, "The price must be at most $1,000,000.00."],
      [{ salePriceCents: "2600" }, "The sale price must be lower than the price."],
      [{ salePriceCents: "2000", saleStartsAt: "2027-02-01 00:00", saleEndsAt: "2027-01-01 00:00" }, "The sale must end after it starts."],
      [{ saleEndsAt: "2027-01-01 00:00" }, "A sale needs a sale price: enter one, or clear the sale's dates."],
      [
        { salePriceCents: "2000", saleStartsAt: "2027-02-30 00:00" },
        "The sale's start must be a date and time in UTC, like 2026-12-24 09:00.",
      ],
      [{ compareAtCents: "100" }, "The compare-at price must be higher than the price."],
    ];
    for (const [values, message] of cases) {
      const refused = await prices(owner, values);
      expect(refused.status, JSON.stringify(values)).toBe(400);
      expect(messageOf(refused)).toBe(message);
    }
    expect(await row()).toMatchObject({ priceCents: 250_000, salePriceCents: null, deskVersion: 0 });
    expect(await audit()).toEqual([]);

    const noToken = await prices({ ...owner, csrf: "forged" }, { priceCents: "1.00" });
    expect(noToken.status).toBe(403);
    expect(messageOf(noToken)).toBe(FORM_EXPIRED);
    const crossSite = await call(
      productAction as RouteFn,
      new Request(`${TEST_ORIGIN}/catalog/${GRILL}`, {
        method: "POST",
        body: formData({ csrf: owner.csrf, intent: "prices", version: 0, priceCents: "1.00" }),
        headers: { Cookie: owner.cookie, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      }),
      { productKey: GRILL },
    );
    expect(crossSite.status).toBe(403);
    expect(await row()).toMatchObject({ priceCents: 250_000, deskVersion: 0 });
  });

  it("answers a NUL in the product's address with 404 and in the search with the list; a field's NUL is dropped, as readForm drops it", async () => {
    const page = await call(productLoader as RouteFn, get(`/catalog/a%00b`, owner.cookie), { productKey: "a\u0000b" });
    expect(page.status).toBe(404);
    const search = await call(deskLoader as RouteFn, get("/catalog?q=gr%00ill&brand=bl%00aze&category=%00", owner.cookie));
    expect(search.status).toBe(200);
    const title = await details(owner, { title: "Blaze\u0000grill", description: "x\u0000y" });
    expect(title.status, messageOf(title)).toBe(303);
    expect(await row()).toMatchObject({ title: "Blazegrill", description: "xy", deskVersion: 1 });
  });

  it("refuses a change made from a page older than the product's last change (409)", async () => {
    expect((await prices(owner, { priceCents: "2400" })).status).toBe(303);
    const stale = await details(clerk, { title: "Overwritten?" }, 0);
    expect(stale.status).toBe(409);
    expect(messageOf(stale)).toMatch(/changed by someone else/);
    expect(await row()).toMatchObject({ title: "Blaze Premium LTE 32 grill", priceCents: 240_000, deskVersion: 1 });
  });

  it("drops the stored reformatted description when the description changes", async () => {
    await database.db.insert(productDescriptions).values({ productKey: GRILL, description: "Old words." });
    expect((await details(owner, { description: "New words from the merchant." })).status).toBe(303);
    expect(await database.db.select().from(productDescriptions).where(eq(productDescriptions.productKey, GRILL))).toEqual([]);
  });

  it("changes several products all or nothing", async () => {
    const outcome = await changeProducts(database.db, {
      staffEmail: OWNER,
      source: "import:test",
      products: [
        { productKey: COVER, expectedVersion: 0, values: { priceCents: 3_500 } },
        { productKey: GRILL, expectedVersion: 0, values: { salePriceCents: 300_000 } },
      ],
    });
    expect(outcome).toMatchObject({ ok: false, reason: "invalid", productKey: GRILL });
    expect(await row(COVER)).toMatchObject({ priceCents: 4_000, deskVersion: 0 });
    expect(await audit(COVER)).toEqual([]);
  });
});

describe.each(testDatabaseKinds())("catalogue changes on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind, { catalog: true });
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it("keeps the desk's values when the catalogue files are loaded again", async () => {
    const files = readCatalogFiles();
    const record = files.products[0]!;
    const key = productKey(record);
    const outcome = await changeProducts(database.db, {
      staffEmail: OWNER,
      source: "desk",
      products: [
        { productKey: key, expectedVersion: 0, values: { title: "The merchant's title", published: false, compareAtCents: 999_999_00 } },
      ],
    });
    expect(outcome.ok).toBe(true);
    await loadCatalogIfChanged(database.db, { ...files, contentHash: "reloaded", products: files.products.map((p) => ({ ...p })) });
    const [kept] = await database.db.select().from(products).where(eq(products.key, key));
    expect(kept).toMatchObject({ title: "The merchant's title", published: false, compareAtCents: 999_999_00, deskVersion: 1 });
    // A field the desk never changed follows the files.
    expect(kept!.priceCents).toBe(Math.round(record.Price * 100));
  });

  it("tells every listening process of a committed change, and of a sale's start, by the database's clock", async () => {
    const heard = vi.fn();
    const watch = await watchCatalog(database);
    watch.onChange(heard);
    try {
      const [first] = await database.db
        .select({ key: products.key, priceCents: products.priceCents, deskVersion: products.deskVersion })
        .from(products)
        .where(eq(products.deskVersion, 0))
        .limit(1);
      // Rolled back: nobody hears it.
      await database.db
        .transaction(async (tx) => {
          await announceCatalogChange(tx);
          throw new Error("rolled back");
        })
        .catch(() => {});
      const outcome = await changeProducts(database.db, {
        staffEmail: OWNER,
        source: "desk",
        products: [
          {
            productKey: first!.key,
            expectedVersion: first!.deskVersion,
            values: { salePriceCents: first!.priceCents - 1, saleStartsAt: new Date(Date.now() + 1500) },
          },
        ],
      });
      expect(outcome.ok).toBe(true);
      await vi.waitFor(() => expect(heard).toHaveBeenCalledTimes(1), { timeout: 1000, interval: 10 });
      // The sale starts 1.5 s later: the watch wakes for it without any change being made.
      await vi.waitFor(() => expect(heard).toHaveBeenCalledTimes(2), { timeout: 5000, interval: 20 });
    } finally {
      await watch.stop();
    }
  });
});
