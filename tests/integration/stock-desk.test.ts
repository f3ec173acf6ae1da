import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/database.server";
import { products, productStock, stockImports, stockMovements } from "~/db/schema";
import { action as loginAction, loader as loginLoader } from "~/routes/_staff.login";
import { action as productAction, loader as productLoader } from "~/routes/_staff.stock.$productKey";
import { loader as deskLoader } from "~/routes/_staff.stock._index";
import { loader as csvLoader } from "~/routes/_staff.stock[.csv]";
import { action as previewAction, loader as previewLoader } from "~/routes/_staff.stock.import.$id";
import { action as uploadAction, loader as uploadLoader } from "~/routes/_staff.stock.import._index";
import type { StoreRuntime } from "~/store-runtime";
import { createStaffAccount } from "~/staff/accounts.server";
import { seedStock } from "~/stock/stock.server";
import { createStoreServer } from "../../server/app";
import { testProduct } from "../support/shopping-fixtures";
import { createStoreHandler, type StoreHandler } from "../support/remix-handler";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, formData, TEST_ORIGIN, testContext, testRuntime, recordingJobs } from "../support/test-runtime";
import { callRoute, type RouteFn, type RouteOutcome } from "../support/route-outcome";

/**
 * The staff stock desk (`/stock`): search and the low-stock list, "Set on hand" with its refusals (a count
 * that changed since the page was shown, units held, bad numbers, a missing token), the CSV download, and
 * the CSV import: a preview with row errors and no Apply, a clean one applied as one transaction, refused
 * whole when a count moved, applied once however often it is posted (on PostgreSQL through two pools, as
 * two store processes).
 */

const STAFF_EMAIL = "stock.desk@example.com";
const STAFF_PASSWORD = "Correct-Horse-Battery-49";
const GRILL = "blaze-9401";
const COVER = "blaze-9402";
const CART = "blaze-9403";
const LOW = "blaze-9404";
const FORMULA = "blaze-9405";
const FIRE_BOWL = "the_outdoor_plus-9406";
const ALL = [GRILL, COVER, CART, LOW, FORMULA, FIRE_BOWL];

type Outcome = RouteOutcome;

let runtime: StoreRuntime;

function call(fn: RouteFn, request: Request, params: Record<string, string> = {}, store = runtime): Promise<Outcome> {
  return callRoute(fn, request, testContext(store, { clientAddress: "192.0.2.49" }), params);
}

const get = (path: string, cookie?: string) => new Request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
const post = (path: string, body: FormData, cookie?: string) =>
  new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body, headers: cookie ? { Cookie: cookie } : {} });
const messageOf = (outcome: Outcome) => (outcome.data?.flash as { message?: string } | undefined)?.message ?? "";

function upload(csrf: string | null, file: { text?: string; bytes?: Uint8Array<ArrayBuffer>; name?: string } | null): FormData {
  const form = new FormData();
  if (csrf !== null) form.set("csrf", csrf);
  if (file)
    form.set("file", new File([file.bytes ?? new TextEncoder().encode(file.text ?? "")], file.name ?? "counts.csv", { type: "text/csv" }));
  return form;
}

describe.each(testDatabaseKinds())("the staff stock desk on %s", (kind) => {
  let database: TestDatabase;
  let browser: { cookie: string; csrf: string };
  let store: StoreHandler;
  /** What the desk queued: the "Notify me" emails of a product back in stock are a `stock.notify` job each. */
  const jobs = recordingJobs();
  const notified = () => jobs.sent.filter(({ name }) => name === "stock.notify").map(({ data }) => (data as { id: string }).id);

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN }, { jobs });
    await database.db.insert(products).values([
      { ...testProduct(GRILL, 250_000), title: "Blaze Premium LTE 32 grill" },
      { ...testProduct(COVER, 4_000), title: "Grill cover deluxe" },
      { ...testProduct(CART, 30_000), title: "Grill cart" },
      { ...testProduct(LOW, 9_000), title: "Rotisserie kit" },
      { ...testProduct(FORMULA, 1_000), title: '=HYPERLINK("http://evil.example","x")' },
      { ...testProduct(FIRE_BOWL, 90_000), title: "Fire bowl" },
    ]);
    expect(await seedStock(database.db, 50)).toBe(ALL.length);
    await createStaffAccount(database.db, { email: STAFF_EMAIL, password: STAFF_PASSWORD, role: "staff" });
    browser = await signIn();
    store = await createStoreHandler(runtime);
  }, 60_000);
  afterAll(async () => {
    await database?.dispose();
  });
  beforeEach(async () => {
    runtime = testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN }, { jobs });
    jobs.sent.length = 0;
    await database.db.update(productStock).set({ onHand: 50, reserved: 0 }).where(eq(productStock.policy, "tracked"));
  });

  async function signIn() {
    const page = await call(loginLoader as RouteFn, get("/login"));
    const first = { cookie: cookieFrom(page.headers.get("Set-Cookie")), csrf: String(page.data!.csrf) };
    const signedIn = await call(
      loginAction as RouteFn,
      post("/login", formData({ email: STAFF_EMAIL, password: STAFF_PASSWORD, csrf: first.csrf, redirectTo: "/stock" }), first.cookie),
    );
    expect(signedIn.status).toBe(303);
    const desk = await call(deskLoader as RouteFn, get("/stock", cookieFrom(signedIn.headers.get("Set-Cookie"))));
    expect(desk.status).toBe(200);
    return { cookie: cookieFrom(desk.headers.get("Set-Cookie")), csrf: String(desk.data!.csrf) };
  }

  const stockRow = async (productKey: string) =>
    (await database.db.select().from(productStock).where(eq(productStock.productKey, productKey)))[0]!;
  const setStock = (productKey: string, onHand: number, reserved = 0) =>
    database.db.update(productStock).set({ onHand, reserved }).where(eq(productStock.productKey, productKey));
  const keysOf = (rows: unknown) => (rows as { productKey: string }[]).map((row) => row.productKey);
  const desk = (query = "") => call(deskLoader as RouteFn, get(`/stock${query}`, browser.cookie));
  const setCount = (productKey: string, values: Record<string, string | number>, store = runtime) =>
    call(
      productAction as RouteFn,
      post(`/stock/${productKey}`, formData({ csrf: browser.csrf, ...values }), browser.cookie),
      { productKey },
      store,
    );
  const movementsOf = (productKey: string) => database.db.select().from(stockMovements).where(eq(stockMovements.productKey, productKey));

  async function preview(text: string, name = "counts.csv"): Promise<string> {
    const uploaded = await call(uploadAction as RouteFn, post("/stock/import", upload(browser.csrf, { text, name }), browser.cookie));
    expect(uploaded.status, messageOf(uploaded)).toBe(303);
    const location = uploaded.headers.get("Location") ?? "";
    expect(location).toMatch(/^\/stock\/import\/[0-9a-f-]{36}$/);
    return location.split("/").at(-1)!;
  }
  const apply = (id: string, store = runtime, csrf = browser.csrf) =>
    call(previewAction as RouteFn, post(`/stock/import/${id}`, formData({ csrf, intent: "apply" }), browser.cookie), { id }, store);
  const page = async (path: string) => {
    const answer = await store.handle(get(path, browser.cookie), testContext(runtime));
    return { status: answer.status, html: await answer.text() };
  };

  describe("the list", () => {
    it("sends anyone not signed in to sign in, and back here afterwards", async () => {
      for (const [fn, path] of [
        [deskLoader, "/stock"],
        [csvLoader, "/stock.csv"],
        [uploadLoader, "/stock/import"],
      ] as const) {
        const answer = await call(fn as RouteFn, get(path));
        expect(answer.status, path).toBe(303);
        expect(answer.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: path })}`);
      }
      const upload = await call(uploadAction as RouteFn, post("/stock/import", formData({ csrf: "x" })));
      expect(upload.status).toBe(303);
    });

    it("finds products by key, title, model or brand", async () => {
      expect(keysOf((await desk("?q=deluxe")).data!.rows)).toEqual([COVER]);
      expect(keysOf((await desk(`?q=${CART}`)).data!.rows)).toEqual([CART]);
      expect(keysOf((await desk("?q=the_outdoor")).data!.rows)).toEqual([FIRE_BOWL]);
      expect(keysOf((await desk("?q=grill")).data!.rows).sort()).toEqual([GRILL, COVER, CART].sort());
      expect(keysOf((await desk("?q=100%25")).data!.rows)).toEqual([]);
      expect((await desk("")).data!.rows).toHaveLength(ALL.length);
    });

    it("answers a NUL in the search or the product's address with 200 and 404, not 500", async () => {
      expect((await desk("?q=gr%00ill")).status).toBe(200);
      const page = await call(productLoader as RouteFn, get("/stock/a%00b", browser.cookie), { productKey: "a\u0000b" });
      expect(page.status).toBe(404);
    });

    it("lists low stock, out of stock first, made-to-order products never", async () => {
      await setStock(COVER, 0);
      await setStock(LOW, 4, 2);
      await setStock(CART, 5);
      const first = await desk("");
      const low = first.data!.low as { rows: unknown; total: number };
      expect(keysOf(low.rows)).toEqual([COVER, LOW, CART]);
      expect(low.total).toBe(3);
      expect((low.rows as { available: number }[]).map((row) => row.available)).toEqual([0, 2, 5]);
      const all = await desk("?low=1");
      expect(keysOf(all.data!.rows)).toEqual([COVER, LOW, CART]);
      expect(all.data!.low).toBeNull();

      const html = (await page("/stock")).html;
      expect(html).toContain('data-testid="low-stock"');
      expect(html).toContain(`href="/stock/${COVER}"`);
      expect(html).not.toContain(`href="/stock/${FIRE_BOWL}"`);
      expect(html).toContain("0 (out of stock)");
      expect(html).toContain('href="/stock"');
    });

    it("downloads every count as formula-safe CSV", async () => {
      await setStock(GRILL, 7, 2);
      const answer = await call(csvLoader as RouteFn, get("/stock.csv", browser.cookie));
      expect(answer.status).toBe(200);
      expect(answer.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
      expect(answer.headers.get("Cache-Control")).toBe("private, no-store");
      expect(answer.headers.get("Content-Disposition")).toMatch(/^attachment; filename="stock-\d{4}-\d{2}-\d{2}\.csv"$/);
      const lines = (await answer.response!.text()).split("\r\n");
      expect(lines[0]).toBe("product_key,title,policy,on_hand,held,available");
      expect(lines).toContain(`${GRILL},Blaze Premium LTE 32 grill,tracked,7,2,5`);
      expect(lines).toContain(`${FIRE_BOWL},Fire bowl,made-to-order,,,`);
      expect(lines).toContain(`${FORMULA},"'=HYPERLINK(""http://evil.example"",""x"")",tracked,50,0,50`);
      expect(lines.at(-1)).toBe("");
    });
  });

  describe("set on hand", () => {
    it("sets the count with a movement, says so once, and refuses the same page's count again as stale", async () => {
      const before = await call(productLoader as RouteFn, get(`/stock/${GRILL}`, browser.cookie), { productKey: GRILL });
      expect(before.data!.row).toMatchObject({ productKey: GRILL, onHand: 50, reserved: 0, available: 50 });

      const set = await setCount(GRILL, { onHand: "20", reason: "Counted in the warehouse", expectedOnHand: 50 });
      expect(set.status).toBe(303);
      expect(set.headers.get("Location")).toBe(`/stock/${GRILL}`);
      expect(await stockRow(GRILL)).toMatchObject({ onHand: 20 });
      const after = await call(productLoader as RouteFn, get(`/stock/${GRILL}`, browser.cookie), { productKey: GRILL });
      expect(after.data!.flash).toEqual({ kind: "success", message: "On hand is now 20 (it was 50)." });
      expect((after.data!.movements as unknown[])[0]).toMatchObject({
        delta: -30,
        onHandAfter: 20,
        reason: "Counted in the warehouse",
        actor: STAFF_EMAIL,
      });

      const stale = await setCount(GRILL, { onHand: "25", reason: "Counted again", expectedOnHand: 50 });
      expect(stale.status).toBe(409);
      expect(messageOf(stale)).toMatch(/changed since this page was shown: it is 20 now, not 50\. Nothing was changed/);
      expect(stale.data!.fields).toEqual({ onHand: "25", reason: "Counted again" });
      expect(await stockRow(GRILL)).toMatchObject({ onHand: 20 });
      expect(await movementsOf(GRILL)).toHaveLength(1);
    });

    it("lets one of two posts of the same page win, and tells the other its count is stale", async () => {
      const second = database.url ? await openDatabase({ url: database.url }) : null;
      try {
        const other = second ? { ...runtime, db: second.db } : runtime;
        const answers = await Promise.all([
          setCount(CART, { onHand: "10", reason: "First count", expectedOnHand: 50 }),
          setCount(CART, { onHand: "12", reason: "Second count", expectedOnHand: 50 }, other),
        ]);
        expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
        const won = answers[0]!.status === 303 ? 10 : 12;
        expect(await stockRow(CART)).toMatchObject({ onHand: won });
        expect(await movementsOf(CART)).toHaveLength(1);
      } finally {
        await second?.close();
      }
    });

    it("queues the back-in-stock emails of a product that was out of stock", async () => {
      await setStock(COVER, 0);
      expect((await setCount(COVER, { onHand: "4", reason: "Delivery", expectedOnHand: 0 })).status).toBe(303);
      expect(notified()).toEqual([COVER]);
      jobs.sent.length = 0;
      expect((await setCount(COVER, { onHand: "6", reason: "Delivery", expectedOnHand: 4 })).status).toBe(303);
      expect(notified()).toEqual([]);
    });

    it.each([
      [{ onHand: "12.5" }, 400, /not a whole number/],
      [{ onHand: "-1" }, 400, /negative/],
      [{ onHand: "100001" }, 400, /more than 100,000/],
      [{ onHand: "" }, 400, /empty/],
      [{ reason: "" }, 400, /Say why the count changes/],
      [{ reason: "=1+1" }, 400, /formulas are not accepted/],
      [{ reason: "x".repeat(201) }, 400, /at most 200/],
      [{ expectedOnHand: "" }, 400, /out of date/],
    ])("refuses %j with %d and changes nothing", async (change, status, message) => {
      const answer = await setCount(LOW, { onHand: "10", reason: "Counted", expectedOnHand: 50, ...change });
      expect(answer.status).toBe(status);
      expect(messageOf(answer)).toMatch(message);
      expect(await stockRow(LOW)).toMatchObject({ onHand: 50 });
    });

    it("refuses a count below the units held, a product made to order and one without stock", async () => {
      await setStock(LOW, 50, 5);
      const held = await setCount(LOW, { onHand: "3", reason: "Counted", expectedOnHand: 50 });
      expect([held.status, messageOf(held)]).toEqual([409, expect.stringMatching(/5 of blaze-9404 are held by checkouts paying now/)]);
      const made = await setCount(FIRE_BOWL, { onHand: "3", reason: "Counted", expectedOnHand: 0 });
      expect([made.status, messageOf(made)]).toEqual([409, expect.stringMatching(/is made to order: it has no count/)]);
      const missing = await setCount("blaze-0000", { onHand: "3", reason: "Counted", expectedOnHand: 0 });
      expect([missing.status, messageOf(missing)]).toEqual([404, "There is no product blaze-0000."]);
      expect((await call(productLoader as RouteFn, get("/stock/blaze-0000", browser.cookie), { productKey: "blaze-0000" })).status).toBe(
        404,
      );
      expect(await stockRow(LOW)).toMatchObject({ onHand: 50, reserved: 5 });
    });

    it("refuses a post without the session's CSRF token with 403, and changes nothing", async () => {
      for (const csrf of ["", "not-the-token"]) {
        const answer = await call(
          productAction as RouteFn,
          post(`/stock/${GRILL}`, formData({ csrf, onHand: "1", reason: "Counted", expectedOnHand: 50 }), browser.cookie),
          { productKey: GRILL },
        );
        expect(answer.status).toBe(403);
        expect(messageOf(answer)).toMatch(/This form has expired/);
      }
      expect(await stockRow(GRILL)).toMatchObject({ onHand: 50 });
    });
  });

  describe("the CSV import", () => {
    it("previews a file with row errors and offers no Apply; applying it anyway changes nothing", async () => {
      await setStock(LOW, 50, 4);
      const id = await preview(
        [
          "product_key,on_hand,reason",
          `${GRILL},12,Counted`,
          `${COVER},1.5,`,
          `${CART},-2,`,
          "blaze-0000,3,",
          `${FIRE_BOWL},3,`,
          `${GRILL},13,`,
          `${LOW},2,`,
          `${FORMULA},999999,`,
        ].join("\r\n"),
      );
      const shown = await call(previewLoader as RouteFn, get(`/stock/import/${id}`, browser.cookie), { id });
      const previewData = shown.data!.preview as { errors: { row: number; message: string }[]; changes: unknown[] };
      expect(previewData.errors.map((error) => error.row)).toEqual([3, 4, 5, 6, 7, 8, 9]);
      expect(previewData.errors.map((error) => error.message)).toEqual([
        expect.stringContaining("is not a whole number"),
        expect.stringContaining("is negative"),
        "There is no product “blaze-0000”.",
        expect.stringContaining("is made to order"),
        expect.stringContaining("is also on row 2"),
        expect.stringContaining("4 of “blaze-9404” are held"),
        expect.stringContaining("is more than 100,000"),
      ]);
      expect(previewData.changes).toEqual([
        { row: 2, productKey: GRILL, title: "Blaze Premium LTE 32 grill", before: 50, after: 12, reason: "Counted" },
      ]);

      const html = (await page(`/stock/import/${id}`)).html;
      expect(html).toContain("Rows with errors");
      expect(html).toContain("There is no product “blaze-0000”.");
      expect(html).not.toContain('data-testid="apply-form"');

      const applied = await apply(id);
      expect(applied.status).toBe(409);
      expect(messageOf(applied)).toMatch(/has errors, so nothing can be applied/);
      expect(await stockRow(GRILL)).toMatchObject({ onHand: 50 });
      expect((await database.db.select().from(stockImports).where(eq(stockImports.id, id)))[0]!.appliedAt).toBeNull();
    });

    it("applies a clean file in one go: every count, a movement each, once", async () => {
      await setStock(COVER, 0);
      const id = await preview(
        [
          "product_key,title,on_hand,reason",
          `${GRILL},ignored,40,Cycle count`,
          `${COVER},ignored,8,`,
          `${CART},ignored,50,`,
          `${FIRE_BOWL},ignored,,`,
        ].join("\n"),
        "May count.csv",
      );
      const html = (await page(`/stock/import/${id}`)).html;
      expect(html).toContain('data-testid="apply-form"');
      expect(html).toContain("Apply 2 changes");

      const applied = await apply(id);
      expect(applied.status).toBe(303);
      expect(applied.headers.get("Location")).toBe(`/stock/import/${id}`);
      expect(await stockRow(GRILL)).toMatchObject({ onHand: 40 });
      expect(await stockRow(COVER)).toMatchObject({ onHand: 8 });
      expect(await stockRow(CART)).toMatchObject({ onHand: 50 });
      const moves = await database.db
        .select()
        .from(stockMovements)
        .where(eq(stockMovements.source, `import:${id}`));
      expect(
        moves
          .map(({ productKey, delta, onHandAfter, reason, actor }) => ({ productKey, delta, onHandAfter, reason, actor }))
          .sort((a, b) => a.productKey.localeCompare(b.productKey)),
      ).toEqual([
        { productKey: GRILL, delta: -10, onHandAfter: 40, reason: "Cycle count", actor: STAFF_EMAIL },
        { productKey: COVER, delta: 8, onHandAfter: 8, reason: "CSV import May count.csv", actor: STAFF_EMAIL },
      ]);
      expect(notified()).toEqual([COVER]);

      const after = await call(previewLoader as RouteFn, get(`/stock/import/${id}`, browser.cookie), { id });
      expect(after.data!.flash).toEqual({
        kind: "success",
        message: "Applied: 2 counts changed from May count.csv, each with its movement.",
      });
      expect((after.data!.preview as { appliedBy: string }).appliedBy).toBe(STAFF_EMAIL);
      expect((await page(`/stock/import/${id}`)).html).not.toContain('data-testid="apply-form"');

      const again = await apply(id);
      expect(again.status).toBe(409);
      expect(messageOf(again)).toMatch(/^This import was already applied on .* by stock\.desk@example\.com: nothing was changed again\.$/);
      expect(
        await database.db
          .select()
          .from(stockMovements)
          .where(eq(stockMovements.source, `import:${id}`)),
      ).toHaveLength(2);
    });

    it("refuses the whole import when a count changed since the preview, naming the row, and changes nothing", async () => {
      const id = await preview(["product_key,on_hand", `${GRILL},30`, `${COVER},31`, `${CART},50`].join("\n"));
      // A sale meanwhile, and a count on the desk of a row the file does not change.
      await setStock(COVER, 49);
      await setStock(CART, 51);
      const applied = await apply(id);
      expect(applied.status).toBe(409);
      expect(messageOf(applied)).toBe(
        `Nothing was changed: 2 counts changed since this preview was made (row 3 (${COVER}): 49 on hand now, 50 in the preview; row 4 (${CART}): 51 on hand now, 50 in the preview). Upload the file again for a new preview.`,
      );
      expect(await stockRow(GRILL)).toMatchObject({ onHand: 50 });
      expect(
        await database.db
          .select()
          .from(stockMovements)
          .where(eq(stockMovements.source, `import:${id}`)),
      ).toEqual([]);
      expect((await database.db.select().from(stockImports).where(eq(stockImports.id, id)))[0]!.appliedAt).toBeNull();
    });

    it("applies once when Apply is posted twice at once (on PostgreSQL from two processes)", async () => {
      const id = await preview(["product_key,on_hand", `${GRILL},41`, `${CART},42`, `${LOW},43`].join("\n"));
      const second = database.url ? await openDatabase({ url: database.url }) : null;
      try {
        const other = second ? { ...runtime, db: second.db } : runtime;
        const answers = await Promise.all([apply(id), apply(id, other)]);
        expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
        expect(messageOf(answers.find((answer) => answer.status === 409)!)).toMatch(/already applied/);
      } finally {
        await second?.close();
      }
      expect([(await stockRow(GRILL)).onHand, (await stockRow(CART)).onHand, (await stockRow(LOW)).onHand]).toEqual([41, 42, 43]);
      const moves = await database.db
        .select()
        .from(stockMovements)
        .where(and(eq(stockMovements.source, `import:${id}`)));
      expect(moves).toHaveLength(3);
    });

    it("refuses an upload or an Apply without the session's CSRF token with 403, and changes nothing", async () => {
      const imports = async () => (await database.db.select().from(stockImports)).length;
      const before = await imports();
      for (const csrf of [null, "not-the-token"]) {
        const answer = await call(
          uploadAction as RouteFn,
          post("/stock/import", upload(csrf, { text: `product_key,on_hand\n${GRILL},1\n` }), browser.cookie),
        );
        expect(answer.status).toBe(403);
        expect(messageOf(answer)).toMatch(/This form has expired/);
      }
      expect(await imports()).toBe(before);

      const id = await preview(`product_key,on_hand\n${GRILL},2\n`);
      const refused = await apply(id, runtime, "not-the-token");
      expect(refused.status).toBe(403);
      expect(await stockRow(GRILL)).toMatchObject({ onHand: 50 });
      expect((await database.db.select().from(stockImports).where(eq(stockImports.id, id)))[0]!.appliedAt).toBeNull();
    });

    it.each([
      ["no file", null, 400, /Choose a CSV file/],
      ["an empty file", { text: "" }, 400, /Choose a CSV file/],
      ["an Excel workbook", { bytes: Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]), name: "counts.xlsx" }, 400, /not a CSV file/],
      [
        "a file that is not UTF-8",
        { bytes: Uint8Array.from([...new TextEncoder().encode("product_key,on_hand,reason\nblaze-9401,1,Z"), 0xe4, 0x68]) },
        400,
        /not UTF-8/,
      ],
      ["a file without its header", { text: `${GRILL},1\n` }, 400, /must be the header product_key,on_hand/],
      ["a file over 1 MB", { text: `product_key,on_hand\n${"x".repeat(1_100_000)}` }, 413, /larger than 1 MB, so it was not read/],
    ])("refuses %s with a message, and saves no preview", async (_name, file, status, message) => {
      const before = (await database.db.select().from(stockImports)).length;
      const answer = await call(uploadAction as RouteFn, post("/stock/import", upload(browser.csrf, file), browser.cookie));
      expect(answer.status).toBe(status);
      expect(messageOf(answer)).toMatch(message);
      expect((await database.db.select().from(stockImports)).length).toBe(before);
    });

    it("answers an unknown import with 404", async () => {
      for (const id of ["00000000-0000-4000-8000-000000000000", "not-an-id"]) {
        expect((await call(previewLoader as RouteFn, get(`/stock/import/${id}`, browser.cookie), { id })).status).toBe(404);
        expect((await apply(id)).status).toBe(404);
      }
    });
  });

  describe("behind the HTTP server", () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createStoreServer({
        build: store.build,
        store: runtime,
        config: { NODE_ENV: "production", PUBLIC_BASE_URL: TEST_ORIGIN, TRUSTED_PROXIES: 0 },
        sharedCache: false,
      });
      port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
    });
    afterAll(async () => {
      await new Promise((resolve) => server?.close(resolve));
    });

    function send(headers: Record<string, string>, body: Buffer | null): Promise<{ status: number; text: string }> {
      return new Promise((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/stock/import", headers });
        req.on("response", (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on("error", reject);
        if (body) req.end(body);
        // A 50 MB upload is refused from its Content-Length before a byte of it is read.
        else req.flushHeaders();
      });
    }

    it("cuts a 50 MB upload at once with 413", async () => {
      const answer = await send(
        {
          "Content-Type": "multipart/form-data; boundary=x",
          "Content-Length": String(50 * 1024 * 1024),
          Cookie: browser.cookie,
          Accept: "text/html",
        },
        null,
      );
      expect(answer.status).toBe(413);
      expect(answer.text).toMatch(/Payload Too Large: request bodies are limited to 2048 KB/);
    });

    it("answers a file a little over 1 MB with the page's own message", async () => {
      const boundary = "----stock-desk-test";
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${browser.csrf}\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`),
        Buffer.alloc(1_200_000, "a"),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const answer = await send(
        {
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": String(body.byteLength),
          Cookie: browser.cookie,
          Accept: "text/html",
        },
        body,
      );
      expect(answer.status).toBe(413);
      expect(answer.text).toContain("That file is larger than 1 MB, so it was not read.");
    });
  });
});
