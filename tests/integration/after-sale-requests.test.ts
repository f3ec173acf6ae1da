import { crc32, deflateSync } from "node:zlib";
import type { AppLoadContext } from "@remix-run/node";
import { count, eq, like } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  afterSaleEvents,
  afterSaleLines,
  afterSalePhotos,
  afterSaleRequests,
  emailDeliveries,
  emailOutbox,
  orders,
  products,
} from "~/db/schema";
import { action as claimAction, loader as claimLoader } from "~/routes/order-status.$id_.claim";
import { action as returnAction, loader as returnLoader } from "~/routes/order-status.$id_.return";
import { PROOF_MESSAGES, returnLinkFor } from "~/returns/access.server";
import { PHOTO_MESSAGES } from "~/returns/photos.server";
import { POLICY_MESSAGES } from "~/returns/policy";
import { RETURN_SUBMIT_RATE_LIMITED } from "~/returns/request-page.server";
import type { StoreRuntime } from "~/store-runtime";
import { LOVE_RUB_KEY, testOrder, testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { cookieFrom, TEST_ORIGIN, testContext, testRuntime } from "../support/test-runtime";

type RouteFn = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;
type Outcome = { status: number; headers: Headers; data: Record<string, unknown> | null };

const DAY = 24 * 60 * 60 * 1000;
const EMAIL = "ada.returns@example.com";
const COVER = "blaze-9100";
const GRILL = "blaze-9200";

let runtime: StoreRuntime;

/** Each test posts from an address of its own: the per-address budgets are tested where they are meant to be. */
let testAddress = "192.0.2.1";
let addressesUsed = 0;

async function call(fn: RouteFn, request: Request, orderId: string, clientAddress = testAddress): Promise<Outcome> {
  let result: unknown;
  try {
    result = await fn({ request, params: { id: orderId }, context: testContext(runtime, { clientAddress }) });
  } catch (error) {
    if (!(error instanceof Response) && !(error && typeof error === "object" && "init" in error)) throw error;
    result = error;
  }
  if (result instanceof Response) return { status: result.status, headers: result.headers, data: null };
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = result as { data: Record<string, unknown>; init: ResponseInit | null };
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), data };
  }
  return { status: 200, headers: new Headers(), data: result as Record<string, unknown> };
}

const get = (path: string, cookie?: string) => new Request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

function post(path: string, values: Record<string, string>, photos: File[] = [], cookie?: string): Request {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) form.append(name, value);
  for (const photo of photos) form.append("photo", photo);
  return new Request(`${TEST_ORIGIN}${path}`, { method: "POST", body: form, headers: cookie ? { Cookie: cookie } : {} });
}

const file = (bytes: Uint8Array | Buffer, name: string, type = "image/jpeg") => new File([new Uint8Array(bytes)], name, { type });

describe.each(testDatabaseKinds())("a customer's returns and defect claims on %s", (kind) => {
  let database: TestDatabase;
  let photoWithExif: Buffer;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database, { PUBLIC_BASE_URL: TEST_ORIGIN });
    await database.db
      .insert(products)
      .values([
        testProduct(COVER, 4900, { categories: ["Home", "BBQ & Grill Covers"], specifications: [{ Weight: "4 lbs" }] }),
        testProduct(GRILL, 299900, { categories: ["Home", "Gas Grills"], specifications: [{ Weight: "310 lbs" }] }),
        testProduct(LOVE_RUB_KEY, 1599, { categories: ["Home", "Seasonings & Rubs"] }),
      ]);
    // A 3000 x 2000 photo taken on its side (EXIF orientation 6), with the camera's EXIF block.
    photoWithExif = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#336699" } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: "Ada's camera", Make: "SecretCam" } } })
      .toBuffer();
  });
  afterAll(async () => {
    await database?.dispose();
  });
  beforeEach(() => {
    addressesUsed += 1;
    testAddress = `192.0.2.${addressesUsed}`;
  });

  const item = (productKey: string, title: string, brand: string, quantity = 2) => ({
    productKey,
    title,
    model: "M",
    brand,
    imageUrl: "/images/placeholder.svg",
    unitPriceCents: 4900,
    quantity,
  });

  async function deliveredOrder({ deliveredDaysAgo = 2 as number | null, email = EMAIL } = {}) {
    const row = testOrder({
      email,
      status: "Shipped",
      items: [
        item(COVER, "Grill cover", "blaze"),
        item(GRILL, "Big grill", "blaze", 1),
        item(LOVE_RUB_KEY, "LOVE RUB", "custom_product", 1),
      ],
      shippedAt: new Date(Date.now() - 10 * DAY),
      deliveredAt: deliveredDaysAgo === null ? null : new Date(Date.now() - deliveredDaysAgo * DAY),
    });
    await database.db.insert(orders).values(row);
    return row.orderId;
  }

  const returnPath = (orderId: string) => `/order-status/${orderId}/return`;

  async function prove(orderId: string, email = EMAIL): Promise<string> {
    const proven = await call(returnAction as RouteFn, post(returnPath(orderId), { intent: "prove", email }), orderId);
    expect(proven.status).toBe(303);
    return cookieFrom(proven.headers.get("Set-Cookie"));
  }

  async function formKeyOf(orderId: string, cookie: string, loader: RouteFn = returnLoader as RouteFn, path = returnPath(orderId)) {
    const page = await call(loader, get(path, cookie), orderId);
    expect(page.data?.proven).toBe(true);
    return String(page.data?.formKey);
  }

  async function requestCount(orderId: string) {
    const [requests] = await database.db.select({ n: count() }).from(afterSaleRequests).where(eq(afterSaleRequests.orderId, orderId));
    const [photos] = await database.db
      .select({ n: count() })
      .from(afterSalePhotos)
      .innerJoin(afterSaleRequests, eq(afterSaleRequests.id, afterSalePhotos.requestId))
      .where(eq(afterSaleRequests.orderId, orderId));
    return { requests: requests?.n ?? 0, photos: photos?.n ?? 0 };
  }

  const coverReturn = (formKey: string, extra: Record<string, string> = {}) => ({
    intent: "submit",
    formKey,
    "quantity-0": "1",
    "quantity-1": "0",
    "quantity-2": "0",
    reason: "Changed my mind",
    note: "Wrong colour for the patio",
    ...extra,
  });

  it("requests a return of one line with a photo, proven by the checkout email: re-encoded without EXIF, acknowledged once", async () => {
    const orderId = await deliveredOrder();
    const cookie = await prove(orderId, "  ADA.Returns@Example.COM ");
    const formKey = await formKeyOf(orderId, cookie);
    const sent = await call(
      returnAction as RouteFn,
      post(returnPath(orderId), coverReturn(formKey), [file(photoWithExif, "IMG_0001.jpg")], cookie),
      orderId,
    );
    expect(sent.status).toBe(303);
    const location = sent.headers.get("Location") ?? "";
    expect(location).toMatch(new RegExp(`^${returnPath(orderId)}\\?sent=R-[2-9A-HJKMNP-Z]{6}$`));

    const [request] = await database.db.select().from(afterSaleRequests).where(eq(afterSaleRequests.orderId, orderId));
    expect(request).toMatchObject({ kind: "return", status: "requested", reason: "Changed my mind", note: "Wrong colour for the patio" });
    expect(location).toContain(request!.number);
    const lines = await database.db.select().from(afterSaleLines).where(eq(afterSaleLines.requestId, request!.id));
    expect(lines).toEqual([{ requestId: request!.id, orderId, lineIndex: 0, productKey: COVER, quantity: 1 }]);
    const [photo] = await database.db.select().from(afterSalePhotos).where(eq(afterSalePhotos.requestId, request!.id));
    const stored = await sharp(photo!.data).metadata();
    expect(stored.format).toBe("jpeg");
    expect(stored.exif).toBeUndefined();
    expect(stored.orientation).toBeUndefined();
    // Turned upright by its orientation, then at most 2000 px on the longer side.
    expect([stored.width, stored.height]).toEqual([1333, 2000]);
    expect([photo!.width, photo!.height]).toEqual([1333, 2000]);
    expect(photo!.data.includes(Buffer.from("SecretCam"))).toBe(false);

    const deliveries = await database.db
      .select()
      .from(emailDeliveries)
      .where(eq(emailDeliveries.reference, `return-requested:${request!.id}`));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ toAddress: EMAIL });
    expect(deliveries[0]!.subject).toContain(request!.number);

    // The page now shows the request and its status.
    const page = await call(returnLoader as RouteFn, get(location, cookie), orderId);
    expect(page.data?.sent).toBe(request!.number);
    expect(page.data?.requests).toMatchObject([{ number: request!.number, status: "requested", lines: [{ lineIndex: 0, quantity: 1 }] }]);

    // The same form sent again (a double click, the back button, a replay) makes no second request and no second email.
    const again = await call(
      returnAction as RouteFn,
      post(returnPath(orderId), coverReturn(formKey), [file(photoWithExif, "IMG_0001.jpg")], cookie),
      orderId,
    );
    expect(again.status).toBe(303);
    expect(again.headers.get("Location")).toBe(location);
    expect(await requestCount(orderId)).toEqual({ requests: 1, photos: 1 });
    const [events] = await database.db.select({ n: count() }).from(afterSaleEvents).where(eq(afterSaleEvents.requestId, request!.id));
    expect(events?.n).toBe(1);
    expect(
      await database.db
        .select()
        .from(emailDeliveries)
        .where(eq(emailDeliveries.reference, `return-requested:${request!.id}`)),
    ).toHaveLength(1);

    // A new form for the same line: one open request per line.
    const second = await call(
      returnAction as RouteFn,
      post(returnPath(orderId), coverReturn(await formKeyOf(orderId, cookie)), [], cookie),
      orderId,
    );
    expect(second.status).toBe(400);
    expect(second.data?.refusals).toEqual([POLICY_MESSAGES.openRequest("Grill cover", request!.number)]);
  });

  it("refuses the Order ID alone: the page shows no form and a post changes nothing", async () => {
    const orderId = await deliveredOrder();
    const page = await call(returnLoader as RouteFn, get(returnPath(orderId)), orderId);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ proven: false, formKey: null, requests: [] });
    const sent = await call(returnAction as RouteFn, post(returnPath(orderId), coverReturn("0123456789abcdef0123456789abcdef")), orderId);
    expect(sent.status).toBe(403);
    // A stranger's form is read within 64 KB: photos only after proof.
    const withPhoto = await call(
      returnAction as RouteFn,
      post(returnPath(orderId), coverReturn("0123456789abcdef0123456789abcdef"), [file(Buffer.alloc(100_000, 1), "a.jpg")]),
      orderId,
    );
    expect(withPhoto.status).toBe(413);
    expect(sent.data?.errors).toEqual({ "": PROOF_MESSAGES.proofRequired });
    // Another order's proof is no proof for this one.
    const other = await deliveredOrder({ email: "grace@example.com" });
    const otherCookie = await prove(other, "grace@example.com");
    const crossed = await call(
      returnAction as RouteFn,
      post(returnPath(orderId), coverReturn("0123456789abcdef0123456789abcdef"), [], otherCookie),
      orderId,
    );
    expect(crossed.status).toBe(403);
    expect(await requestCount(orderId)).toEqual({ requests: 0, photos: 0 });
    // An unknown order is the lookup's answer, 404, as a readable page.
    const unknown = await call(returnLoader as RouteFn, get(returnPath("ZZZZZZZZZZ")), "ZZZZZZZZZZ");
    expect(unknown.status).toBe(404);
  });

  it("refuses a wrong email with one answer, and limits wrong emails per order and per address", async () => {
    const orderId = await deliveredOrder();
    const wrong = (address: string, email = "someone@example.com") =>
      call(returnAction as RouteFn, post(returnPath(orderId), { intent: "prove", email }), orderId, address);
    const first = await wrong("198.51.100.1");
    expect(first.status).toBe(400);
    expect(first.data?.errors).toEqual({ email: PROOF_MESSAGES.noMatch });
    expect(first.headers.get("Set-Cookie")).toBeNull();
    // Five wrong guesses for one order, from five addresses: the sixth is refused, the right one too, until the window ends.
    for (let i = 2; i <= 5; i += 1) expect((await wrong(`198.51.100.${i}`)).status).toBe(400);
    const limited = await wrong("198.51.100.6");
    expect(limited.status).toBe(429);
    expect(limited.data?.errors).toEqual({ email: PROOF_MESSAGES.rateLimited });
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await wrong("198.51.100.7", EMAIL)).status).toBe(429);

    // Ten wrong guesses from one address, over many orders: the address is stopped for every order.
    const address = "203.0.113.50";
    for (let i = 0; i < 10; i += 1) {
      const id = await deliveredOrder();
      expect(
        (await call(returnAction as RouteFn, post(returnPath(id), { intent: "prove", email: "x@example.com" }), id, address)).status,
      ).toBe(400);
    }
    const fresh = await deliveredOrder();
    const stopped = await call(returnAction as RouteFn, post(returnPath(fresh), { intent: "prove", email: EMAIL }), fresh, address);
    expect(stopped.status).toBe(429);
    // Another address proves the same order at once.
    expect(
      (await call(returnAction as RouteFn, post(returnPath(fresh), { intent: "prove", email: EMAIL }), fresh, "203.0.113.51")).status,
    ).toBe(303);
  });

  it("proves by the signed link of the shipped email, and refuses an expired, forged or other order's link", async () => {
    const orderId = await deliveredOrder();
    const link = returnLinkFor(runtime.sessionSecret, TEST_ORIGIN, orderId);
    expect(link).toMatch(new RegExp(`^${TEST_ORIGIN}/order-status/${orderId}/return\\?token=`));
    const opened = await call(returnLoader as RouteFn, get(link.slice(TEST_ORIGIN.length)), orderId);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("Location")).toBe(returnPath(orderId));
    const cookie = cookieFrom(opened.headers.get("Set-Cookie"));
    expect((await call(returnLoader as RouteFn, get(returnPath(orderId), cookie), orderId)).data?.proven).toBe(true);

    const expired = returnLinkFor(runtime.sessionSecret, TEST_ORIGIN, orderId, new Date(Date.now() - 61 * DAY));
    const late = await call(returnLoader as RouteFn, get(expired.slice(TEST_ORIGIN.length)), orderId);
    expect(late.status).toBe(400);
    expect(late.data).toMatchObject({ proven: false, linkError: PROOF_MESSAGES.linkExpired });

    const other = await deliveredOrder();
    const othersLink = returnLinkFor(runtime.sessionSecret, TEST_ORIGIN, other);
    const token = new URL(othersLink).searchParams.get("token")!;
    for (const forged of [token, `${token.slice(0, -2)}AA`, "junk", "9".repeat(500)]) {
      const answer = await call(returnLoader as RouteFn, get(`${returnPath(orderId)}?token=${encodeURIComponent(forged)}`), orderId);
      expect(answer.status).toBe(400);
      expect(answer.data).toMatchObject({ proven: false, linkError: PROOF_MESSAGES.linkInvalid });
    }
  });

  it("refuses another order's lines, and asks for a photo of a freight item", async () => {
    const orderId = await deliveredOrder();
    const cookie = await prove(orderId);
    const foreign = await call(
      returnAction as RouteFn,
      post(returnPath(orderId), { ...coverReturn(await formKeyOf(orderId, cookie)), "quantity-0": "0", "quantity-7": "1" }, [], cookie),
      orderId,
    );
    expect(foreign.status).toBe(400);
    expect(foreign.data?.refusals).toEqual([POLICY_MESSAGES.notOnOrder]);
    const freight = await call(
      returnAction as RouteFn,
      post(returnPath(orderId), { ...coverReturn(await formKeyOf(orderId, cookie)), "quantity-0": "0", "quantity-1": "1" }, [], cookie),
      orderId,
    );
    expect(freight.data?.refusals).toEqual([POLICY_MESSAGES.freightPhoto("Big grill")]);
    const tooMany = await call(
      returnAction as RouteFn,
      post(returnPath(orderId), coverReturn(await formKeyOf(orderId, cookie), { "quantity-0": "3" }), [], cookie),
      orderId,
    );
    expect(tooMany.data?.refusals).toEqual([POLICY_MESSAGES.quantity("Grill cover", 2)]);
    const junk = await call(
      returnAction as RouteFn,
      post(returnPath(orderId), coverReturn(await formKeyOf(orderId, cookie), { "quantity-0": "-1" }), [], cookie),
      orderId,
    );
    expect(junk.status).toBe(400);
    expect(await requestCount(orderId)).toEqual({ requests: 0, photos: 0 });
  });

  it("counts the merchant's returns flags on the product row besides the catalogue's rules", async () => {
    const setFlags = (flags: Partial<Record<"nonReturnable" | "customMade" | "madeToOrder", boolean>>) =>
      database.db
        .update(products)
        .set({ nonReturnable: false, customMade: false, madeToOrder: false, ...flags })
        .where(eq(products.key, COVER));
    try {
      for (const [flags, why] of [
        [{ nonReturnable: true }, "is marked non-returnable"],
        [{ customMade: true }, "is a custom item"],
        [{ madeToOrder: true }, "is made to order"],
      ] as const) {
        await setFlags(flags);
        const orderId = await deliveredOrder();
        const cookie = await prove(orderId);
        const refused = await call(
          returnAction as RouteFn,
          post(returnPath(orderId), coverReturn(await formKeyOf(orderId, cookie)), [], cookie),
          orderId,
        );
        expect(refused.status).toBe(400);
        expect(refused.data?.refusals).toEqual([POLICY_MESSAGES.notReturnable("Grill cover", why)]);
        expect(await requestCount(orderId)).toEqual({ requests: 0, photos: 0 });
      }
    } finally {
      await setFlags({});
    }
    // The flags cleared, the same cover may be returned again; the catalogue's own rule (LOVE RUB is custom) never needed one.
    const orderId = await deliveredOrder();
    const cookie = await prove(orderId);
    const accepted = await call(
      returnAction as RouteFn,
      post(returnPath(orderId), coverReturn(await formKeyOf(orderId, cookie)), [], cookie),
      orderId,
    );
    expect(accepted.status).toBe(303);
  });

  it("refuses a return after 30 days, of a custom item, or before delivery, with a clear message", async () => {
    const late = await deliveredOrder({ deliveredDaysAgo: 31 });
    const lateCookie = await prove(late);
    const refused = await call(
      returnAction as RouteFn,
      post(returnPath(late), coverReturn(await formKeyOf(late, lateCookie)), [], lateCookie),
      late,
    );
    expect(refused.status).toBe(400);
    expect(refused.data?.refusals).toEqual([expect.stringContaining("Returns must be requested within 30 days of delivery")]);

    const custom = await deliveredOrder();
    const customCookie = await prove(custom);
    const rub = await call(
      returnAction as RouteFn,
      post(
        returnPath(custom),
        { ...coverReturn(await formKeyOf(custom, customCookie)), "quantity-0": "0", "quantity-2": "1" },
        [],
        customCookie,
      ),
      custom,
    );
    expect(rub.data?.refusals).toEqual([POLICY_MESSAGES.notReturnable("LOVE RUB", "is a custom item")]);

    const waiting = await deliveredOrder({ deliveredDaysAgo: null });
    const waitingCookie = await prove(waiting);
    const page = await call(returnLoader as RouteFn, get(returnPath(waiting), waitingCookie), waiting);
    expect(page.data).toMatchObject({ proven: true, deliveredAt: null });
    const early = await call(
      returnAction as RouteFn,
      post(returnPath(waiting), coverReturn(String(page.data?.formKey)), [], waitingCookie),
      waiting,
    );
    expect(early.data?.refusals).toEqual([POLICY_MESSAGES.notDeliveredReturn]);
    for (const id of [late, custom, waiting]) expect(await requestCount(id)).toEqual({ requests: 0, photos: 0 });
  });

  it("refuses uploads that are not images, oversized, malformed, huge in pixels or too many, writing nothing", async () => {
    const orderId = await deliveredOrder();
    const cookie = await prove(orderId);
    const hugePixels = await sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: "#ffffff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const cases: Array<[File[], string]> = [
      [[file(Buffer.from("#!/bin/sh\necho not a photo\n"), "evil.jpg")], PHOTO_MESSAGES.notImage("evil.jpg")],
      [[file(svg, "drawing.jpg", "image/svg+xml")], PHOTO_MESSAGES.notImage("drawing.jpg")],
      [[file(Buffer.alloc(5 * 1024 * 1024 + 1, 0xff), "big.jpg")], PHOTO_MESSAGES.tooLarge("big.jpg")],
      [[file(photoWithExif.subarray(0, photoWithExif.length / 2), "cut.jpg")], PHOTO_MESSAGES.unreadable("cut.jpg")],
      [[file(hugePixels, "huge.png", "image/png")], PHOTO_MESSAGES.tooManyPixels("huge.png")],
      // A few hundred bytes that declare a 100,000 × 100,000 canvas: the pixel message, not "not a photo".
      [[file(pngDeclaring(100_000, 100_000), "canvas.png", "image/png")], PHOTO_MESSAGES.tooManyPixels("canvas.png")],
      [[1, 2, 3, 4].map((n) => file(photoWithExif, `p${n}.jpg`)), PHOTO_MESSAGES.tooMany],
    ];
    for (const [photos, message] of cases) {
      const answer = await call(
        returnAction as RouteFn,
        post(returnPath(orderId), coverReturn(await formKeyOf(orderId, cookie)), photos, cookie),
        orderId,
      );
      expect(answer.status, message).toBe(400);
      expect(answer.data?.errors).toEqual({ photo: message });
    }
    expect(await requestCount(orderId)).toEqual({ requests: 0, photos: 0 });
  });

  it("limits the forms one address sends, before reading them", async () => {
    const orderId = await deliveredOrder();
    const cookie = await prove(orderId);
    const formKey = await formKeyOf(orderId, cookie);
    for (let i = 0; i < 20; i += 1) {
      const refused = await call(
        returnAction as RouteFn,
        post(returnPath(orderId), coverReturn(formKey, { "quantity-0": "9" }), [], cookie),
        orderId,
      );
      expect(refused.status).toBe(400);
    }
    const limited = await call(
      returnAction as RouteFn,
      post(returnPath(orderId), coverReturn(formKey), [file(photoWithExif, "a.jpg")], cookie),
      orderId,
    );
    expect(limited.status).toBe(429);
    expect(limited.data?.errors).toEqual({ "": RETURN_SUBMIT_RATE_LIMITED });
    expect(await requestCount(orderId)).toEqual({ requests: 0, photos: 0 });
  });

  it("opens one request per line when two posts race", async () => {
    const orderId = await deliveredOrder();
    const cookie = await prove(orderId);
    const [a, b] = [await formKeyOf(orderId, cookie), await formKeyOf(orderId, cookie)];
    const answers = await Promise.all(
      [a, b].map((key) => call(returnAction as RouteFn, post(returnPath(orderId), coverReturn(key), [], cookie), orderId)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 400]);
    expect(answers.find((answer) => answer.status === 400)?.data?.refusals).toEqual([
      expect.stringContaining("already has an open request"),
    ]);
    expect((await requestCount(orderId)).requests).toBe(1);
  });

  it("takes a defect claim with serial number, description and a video link, acknowledged once", async () => {
    const orderId = await deliveredOrder({ deliveredDaysAgo: 200 });
    const cookie = await prove(orderId);
    const path = `/order-status/${orderId}/claim`;
    const formKey = await formKeyOf(orderId, cookie, claimLoader as RouteFn, path);
    const fields = {
      intent: "submit",
      formKey,
      "quantity-1": "1",
      serialNumber: "SN-12345",
      note: "The igniter no longer sparks on any burner.",
      videoUrl: "javascript:alert(1)",
    };
    const badLink = await call(claimAction as RouteFn, post(path, fields, [], cookie), orderId);
    expect(badLink.status).toBe(400);
    expect(Object.keys((badLink.data?.errors as object) ?? {})).toEqual(["videoUrl"]);
    const noEvidence = await call(claimAction as RouteFn, post(path, { ...fields, videoUrl: "" }, [], cookie), orderId);
    expect(noEvidence.data?.refusals).toEqual([POLICY_MESSAGES.defectEvidence]);

    const sent = await call(
      claimAction as RouteFn,
      post(path, { ...fields, videoUrl: "https://video.example/igniter" }, [], cookie),
      orderId,
    );
    expect(sent.status).toBe(303);
    expect(sent.headers.get("Location")).toMatch(/\?sent=D-[2-9A-HJKMNP-Z]{6}$/);
    const [claim] = await database.db.select().from(afterSaleRequests).where(eq(afterSaleRequests.orderId, orderId));
    expect(claim).toMatchObject({
      kind: "defect",
      reason: "Defective",
      serialNumber: "SN-12345",
      videoUrl: "https://video.example/igniter",
    });
    expect(
      await database.db
        .select()
        .from(emailDeliveries)
        .where(eq(emailDeliveries.reference, `claim-received:${claim!.id}`)),
    ).toHaveLength(1);
  });

  it("never locks the customer out: past the wrong guesses, Email me a link sends the signed link to the checkout address", async () => {
    const orderId = await deliveredOrder();
    for (let i = 1; i <= 5; i += 1) {
      await call(
        returnAction as RouteFn,
        post(returnPath(orderId), { intent: "prove", email: "guess@example.com" }),
        orderId,
        `198.51.101.${i}`,
      );
    }
    const locked = await call(returnAction as RouteFn, post(returnPath(orderId), { intent: "prove", email: EMAIL }), orderId);
    expect(locked.status).toBe(429);
    expect(String(locked.data?.errors && (locked.data.errors as Record<string, string>).email)).toMatch(/Email me a link/);

    const asked = await call(returnAction as RouteFn, post(returnPath(orderId), { intent: "send-link" }), orderId);
    expect(asked).toMatchObject({ status: 200, data: { notice: PROOF_MESSAGES.linkSent } });
    expect(asked.headers.get("Set-Cookie")).toBeNull();
    const [delivery] = await database.db
      .select()
      .from(emailDeliveries)
      .where(like(emailDeliveries.reference, `return-link:${orderId}:%`));
    expect(delivery).toMatchObject({ toAddress: EMAIL, status: "sent" });
    // The offline outbox keeps what was sent (the delivery queue clears a sent body).
    const [email] = await database.db
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.subject, `%your link for order ${orderId}`));
    const link = /https?:\/\/\S+\/return\?token=\S+/.exec(email!.textBody)![0];
    const opened = await call(returnLoader as RouteFn, get(link.slice(TEST_ORIGIN.length)), orderId);
    expect(opened.status).toBe(303);
    const page = await call(returnLoader as RouteFn, get(returnPath(orderId), cookieFrom(opened.headers.get("Set-Cookie"))), orderId);
    expect(page.data?.proven).toBe(true);

    // A few an hour per order, whoever asks: the customer's inbox is not flooded.
    for (let i = 2; i <= 3; i += 1)
      expect((await call(returnAction as RouteFn, post(returnPath(orderId), { intent: "send-link" }), orderId)).status).toBe(200);
    const flooded = await call(returnAction as RouteFn, post(returnPath(orderId), { intent: "send-link" }), orderId, "198.51.101.99");
    expect(flooded.status).toBe(429);
    expect(flooded.data?.errors).toEqual({ "": PROOF_MESSAGES.linkRateLimited });
  });

  it("keeps proof 30 minutes, and only while its proof holds: a changed checkout email proves nothing", async () => {
    const orderId = await deliveredOrder();
    const cookie = await prove(orderId);
    const proven = async () => (await call(returnLoader as RouteFn, get(returnPath(orderId), cookie), orderId)).data?.proven;
    expect(await proven()).toBe(true);
    const [order] = await database.db.select().from(orders).where(eq(orders.orderId, orderId));
    await database.db
      .update(orders)
      .set({ customer: { ...order!.customer, email: "new.owner@example.com" } })
      .where(eq(orders.orderId, orderId));
    expect(await proven()).toBe(false);
    await database.db.update(orders).set({ customer: order!.customer }).where(eq(orders.orderId, orderId));
    expect(await proven()).toBe(true);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 31 * 60 * 1000 });
    try {
      expect(await proven()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it("confirms only a request of this order to its proven customer: ?sent= carries no text of its own", async () => {
    const orderId = await deliveredOrder();
    const cookie = await prove(orderId);
    for (const sent of ["Call +1-900-SCAM to confirm", "R-NOTOURS1"]) {
      const page = await call(returnLoader as RouteFn, get(`${returnPath(orderId)}?sent=${encodeURIComponent(sent)}`, cookie), orderId);
      expect(page.data?.sent).toBeNull();
    }
    const stranger = await call(returnLoader as RouteFn, get(`${returnPath(orderId)}?sent=R-ANY`), orderId);
    expect(stranger.data?.sent).toBeNull();
  });

  it("refuses 100,000 empty photo parts from a proven browser as they arrive, before parsing any, and writes nothing", async () => {
    const orderId = await deliveredOrder();
    const cookie = await prove(orderId);
    const boundary = "----attack";
    const empty = `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n`;
    const body = `${empty.repeat(100_000)}--${boundary}--\r\n`;
    const flood = new Request(`${TEST_ORIGIN}${returnPath(orderId)}`, {
      method: "POST",
      body,
      headers: { Cookie: cookie, "Content-Type": `multipart/form-data; boundary=${boundary}` },
    });
    const refused = await call(returnAction as RouteFn, flood, orderId);
    expect(refused.status).toBe(413);
    expect(await requestCount(orderId)).toEqual({ requests: 0, photos: 0 });
  });
});

/** A PNG whose header declares `width` × `height` pixels, with almost no image data behind it. */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.alloc(64))), chunk("IEND", Buffer.alloc(0))]);
}
