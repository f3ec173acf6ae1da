import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { catalogChanges, catalogImports, products } from "~/db/schema";
import { loader as csvLoader } from "~/routes/_staff.catalog[.csv]";
import { action as uploadAction, loader as uploadLoader } from "~/routes/_staff.catalog.import._index";
import { action as applyAction, loader as previewLoader } from "~/routes/_staff.catalog.import.$id";
import { loader as deskLoader } from "~/routes/_staff.catalog._index";
import { changeProducts } from "~/catalog/desk/catalog-desk.server";
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
 * The catalogue desk's CSV round trip (/catalog.csv, /catalog/import): one brand's prices downloaded, changed
 * and uploaded show a preview of every change; applied, all at once, each with its audit row; a bad row, a
 * formula, a file too large, a cross-site post, a missing token or a staff account change nothing.
 */
const OWNER = "owner.csv@example.com";
const CLERK = "clerk.csv@example.com";
const PASSWORD = "Correct-Horse-Battery-51";

let runtime: StoreRuntime;
const call = (fn: RouteFn, request: Request, params: Record<string, string> = {}): Promise<RouteOutcome> =>
  callRoute(fn, request, testContext(runtime, { clientAddress: "192.0.2.51" }), params);
const get = (path: string, cookie?: string) => new Request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
const post = (path: string, body: FormData, cookie?: string, headers: Record<string, string> = {}) =>
  new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body, headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers } });
const messageOf = (outcome: RouteOutcome) =>
  (outcome.data?.flash as { message?: string } | undefined)?.message ?? String(outcome.data?.refused ?? "");

function upload(csrf: string, text: string | Uint8Array<ArrayBuffer>, name = "blaze.csv"): FormData {
  const form = new FormData();
  form.set("csrf", csrf);
  form.set("file", new File([typeof text === "string" ? new TextEncoder().encode(text) : text], name, { type: "text/csv" }));
  return form;
}

describe.each(testDatabaseKinds())("the catalogue CSV round trip on %s", (kind) => {
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
    await database.db.delete(catalogImports);
    await database.db.delete(products);
    await database.db.insert(products).values([
      { ...testProduct("blaze-9601", 250_000), title: "Blaze grill" },
      { ...testProduct("blaze-9602", 4_000), title: "Blaze cover" },
      { ...testProduct("coyote-9603", 180_000), brand: "coyote", title: "Coyote grill" },
    ]);
  });

  const price = async (key: string) => (await database.db.select().from(products).where(eq(products.key, key)))[0]!;
  const audit = () => database.db.select().from(catalogChanges);

  async function preview(who: { cookie: string; csrf: string }, text: string | Uint8Array<ArrayBuffer>) {
    const uploaded = await call(uploadAction as RouteFn, post("/catalog/import", upload(who.csrf, text), who.cookie));
    if (uploaded.status !== 303) return { uploaded, id: null, page: null };
    const id = (uploaded.headers.get("Location") ?? "").split("/").pop()!;
    const page = await call(previewLoader as RouteFn, get(`/catalog/import/${id}`, who.cookie), { id });
    return { uploaded, id, page };
  }
  const apply = (who: { cookie: string; csrf: string }, id: string) =>
    call(applyAction as RouteFn, post(`/catalog/import/${id}`, formData({ csrf: who.csrf, intent: "apply" }), who.cookie), { id });

  it("downloads one brand's prices, previews every change of the edited file, and applies it once with an audit row each", async () => {
    const csv = await call(csvLoader as RouteFn, get("/catalog.csv?brand=blaze", owner.cookie));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const text = await csv.response!.text();
    const lines = text.trim().split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^blaze-9601,blaze,.*,2500\.00,/);
    expect(text).not.toContain("coyote-9603");

    const edited = text.replace("2500.00", "2250.00").replace(",40.00,", ",35.00,");
    const { id, page } = await preview(owner, edited);
    expect(page!.status).toBe(200);
    const shown = page!.data!.preview as { summary: unknown; changes: Array<{ productKey: string; changes: unknown[] }> };
    expect(shown.summary).toEqual({ products: 2, unchanged: 0, fields: 2 });
    expect(shown.changes.map((row) => [row.productKey, row.changes])).toEqual([
      ["blaze-9601", [{ field: "priceCents", before: "250000", after: "225000" }]],
      ["blaze-9602", [{ field: "priceCents", before: "4000", after: "3500" }]],
    ]);
    expect((await price("blaze-9601")).priceCents).toBe(250_000);

    const applied = await apply(owner, id!);
    expect(applied.status, messageOf(applied)).toBe(303);
    expect((await price("blaze-9601")).priceCents).toBe(225_000);
    expect((await price("blaze-9602")).priceCents).toBe(3_500);
    expect((await price("coyote-9603")).priceCents).toBe(180_000);
    expect(
      (await audit()).map((row) => [row.productKey, row.field, row.oldValue, row.newValue, row.staffEmail, row.source]).sort(),
    ).toEqual([
      ["blaze-9601", "priceCents", "250000", "225000", OWNER, `import:${id}`],
      ["blaze-9602", "priceCents", "4000", "3500", OWNER, `import:${id}`],
    ]);

    const again = await apply(owner, id!);
    expect(again.status).toBe(409);
    expect(messageOf(again)).toMatch(/already applied/);
    expect(await audit()).toHaveLength(2);
  });

  it("exports one category's products", async () => {
    await database.db
      .update(products)
      .set({ categories: ["heaters"] })
      .where(eq(products.key, "coyote-9603"));
    const text = await (await call(csvLoader as RouteFn, get("/catalog.csv?category=heaters", clerk.cookie))).response!.text();
    expect(
      text
        .trim()
        .split("\r\n")
        .map((line) => line.split(",")[0]),
    ).toEqual(["product_key", "coyote-9603"]);
  });

  it("refuses the whole file on any bad row, naming the row and why, and applies nothing", async () => {
    const { id, page } = await preview(
      owner,
      "product_key,price,sale_price,sale_starts,sale_ends\n" +
        "blaze-9601,2000.00,,,\n" +
        "blaze-9602,-5,,,\n" +
        "coyote-9603,\"=cmd|' /C calc'!A0\",,,\n" +
        "blaze-9609,10.00,,,\n",
    );
    expect(page!.data!.preview).toMatchObject({
      errors: [
        { row: 3, message: "price (Price) cannot be negative." },
        { row: 4, message: "price “=cmd|' /C calc'!A0” starts like a formula (=, +, -, @): formulas are not accepted." },
        { row: 5, message: "There is no product “blaze-9609”." },
      ],
    });
    const refused = await apply(owner, id!);
    expect(refused.status).toBe(409);
    expect(messageOf(refused)).toMatch(/has errors, so nothing can be applied/);
    expect((await price("blaze-9601")).priceCents).toBe(250_000);
    expect(await audit()).toEqual([]);
    expect((await database.db.select().from(catalogImports))[0]!.appliedAt).toBeNull();

    const endsFirst = await preview(owner, "product_key,sale_price,sale_starts,sale_ends\nblaze-9601,2000,2027-02-01,2027-01-01\n");
    expect(endsFirst.page!.data!.preview).toMatchObject({
      errors: [{ row: 2, message: "blaze-9601: The sale must end after it starts." }],
    });
  });

  it("applies nothing when a product changed after the preview (409), and says which row", async () => {
    const { id } = await preview(owner, "product_key,price\nblaze-9601,2000.00\nblaze-9602,30.00\n");
    await changeProducts(database.db, {
      staffEmail: CLERK,
      source: "desk",
      products: [{ productKey: "blaze-9602", expectedVersion: 0, values: { title: "Renamed" } }],
    });
    const refused = await apply(owner, id!);
    expect(refused.status).toBe(409);
    expect(messageOf(refused)).toBe(
      "Nothing was changed: row 3 (blaze-9602) was changed since this preview was made. Upload the file again for a new preview.",
    );
    expect((await price("blaze-9601")).priceCents).toBe(250_000);
    expect((await database.db.select().from(catalogImports))[0]!.appliedAt).toBeNull();
  });

  it("refuses a staff account the import pages and their posts with 403, reading nothing", async () => {
    const page = await call(uploadLoader as RouteFn, get("/catalog/import", clerk.cookie));
    expect(page.status).toBe(403);
    expect(page.data!.refused).toBe(OWNER_ONLY.catalogImport);
    const uploaded = await call(
      uploadAction as RouteFn,
      post("/catalog/import", upload(clerk.csrf, "product_key,price\nblaze-9601,1.00\n"), clerk.cookie),
    );
    expect(uploaded.status).toBe(403);
    expect(messageOf(uploaded)).toBe(OWNER_ONLY.catalogImport);
    expect(await database.db.select().from(catalogImports)).toEqual([]);

    const { id } = await preview(owner, "product_key,price\nblaze-9601,1.00\n");
    const previewPage = await call(previewLoader as RouteFn, get(`/catalog/import/${id}`, clerk.cookie), { id: id! });
    expect(previewPage.status).toBe(403);
    expect(previewPage.data!.preview).toBeNull();
    const applied = await apply(clerk, id!);
    expect(applied.status).toBe(403);
    expect((await price("blaze-9601")).priceCents).toBe(250_000);
  });

  it("refuses a missing token, a cross-site post, a file over 1 MB and a workbook, and saves no preview", async () => {
    const forged = await call(
      uploadAction as RouteFn,
      post("/catalog/import", upload("forged", "product_key,price\nblaze-9601,1\n"), owner.cookie),
    );
    expect(forged.status).toBe(403);
    expect(messageOf(forged)).toBe(FORM_EXPIRED);
    const crossSite = await call(
      uploadAction as RouteFn,
      post("/catalog/import", upload(owner.csrf, "product_key,price\nblaze-9601,1\n"), owner.cookie, {
        Origin: "https://evil.example",
        "Sec-Fetch-Site": "cross-site",
      }),
    );
    expect(crossSite.status).toBe(403);
    const big = await preview(owner, `product_key,price\n${"blaze-9601,1.00\n".repeat(90_000)}`);
    expect(big.uploaded.status).toBe(413);
    expect(messageOf(big.uploaded)).toContain("That file is larger than 1 MB, so it was not read.");
    const workbook = await preview(owner, Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
    expect(workbook.uploaded.status).toBe(400);
    expect(messageOf(workbook.uploaded)).toMatch(/spreadsheet workbook/);
    expect(await database.db.select().from(catalogImports)).toEqual([]);
    expect(await audit()).toEqual([]);
  });
});
