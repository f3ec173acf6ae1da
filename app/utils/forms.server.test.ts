import { describe, expect, it } from "vitest";
import { z } from "zod";
import { emailAddressSchema, isEmailAddress } from "./email-address.server";
import { FORM_MESSAGES, MAX_FORM_FIELDS, parseForm, readBodyWithin, readForm, readFormData, SHOPPER_FORM_MAX_BYTES } from "./forms.server";

const URL = "http://store.test/contact";
/** The store behind a proxy: its public address is not the one the request was made to. */
const config = { PUBLIC_BASE_URL: "https://shop.example" };

async function refusal(promise: Promise<unknown>): Promise<{ status: number; allow: string | null; text: string }> {
  try {
    await promise;
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, allow: thrown.headers.get("Allow"), text: await thrown.text() };
    throw thrown;
  }
  throw new Error("expected a refusal");
}

describe("readForm", () => {
  it("reads a urlencoded and a multipart form, first text value per name", async () => {
    const encoded = new Request(URL, {
      method: "POST",
      body: new URLSearchParams([
        ["a", "1"],
        ["a", "2"],
        ["b", "x"],
      ]),
    });
    expect(await readForm(encoded, config)).toEqual({ a: "1", b: "x" });
    const multipart = new FormData();
    multipart.set("file", new Blob(["bytes"]), "f.txt");
    multipart.set("name", "Dana");
    expect(await readForm(new Request(URL, { method: "POST", body: multipart }), config)).toEqual({ name: "Dana" });
  });

  it("answers another method with 405 and Allow", async () => {
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const result = await refusal(readForm(new Request(URL, { method, body: new URLSearchParams({ a: "1" }) }), config));
      expect(result).toMatchObject({ status: 405, allow: "GET, HEAD, POST" });
    }
  });

  it("refuses a form another site's page sent with 403, and accepts the store's own", async () => {
    const post = (headers: Record<string, string>) => new Request(URL, { method: "POST", body: new URLSearchParams({ a: "1" }), headers });
    const crossSite: Array<Record<string, string>> = [{ "Sec-Fetch-Site": "cross-site" }, { Origin: "https://evil.example" }];
    for (const headers of crossSite) {
      expect(await refusal(readForm(post(headers), config))).toMatchObject({
        status: 403,
        text: expect.stringContaining(FORM_MESSAGES.crossSite),
      });
    }
    expect(await readForm(post({ "Sec-Fetch-Site": "same-origin", Origin: "http://store.test" }), config)).toEqual({ a: "1" });
    // Without Sec-Fetch-Site, the origin is compared with the request's and with PUBLIC_BASE_URL's.
    expect(await readForm(post({ Origin: "https://shop.example" }), config)).toEqual({ a: "1" });
    expect(await refusal(readForm(post({ Origin: "https://shop.example" }), {}))).toMatchObject({ status: 403 });
  });

  it("refuses JSON, plain text and a body without a type with 415 and says why", async () => {
    const bodies: Array<[string | null, string]> = [
      ["application/json", '{"email":"a@b.co"}'],
      ["text/plain", "email=a@b.co"],
      [null, "email=a@b.co"],
    ];
    for (const [type, body] of bodies) {
      const request = new Request(URL, { method: "POST", body, headers: type ? { "Content-Type": type } : {} });
      if (!type) request.headers.delete("Content-Type");
      expect(await refusal(readForm(request, config))).toEqual({ status: 415, allow: null, text: FORM_MESSAGES.unsupportedType });
    }
  });

  it("answers a multipart body without parts with 400, not a 500", async () => {
    const request = new Request(URL, { method: "POST", body: "", headers: { "Content-Type": "multipart/form-data; boundary=xyz" } });
    expect(await refusal(readForm(request, config))).toEqual({ status: 400, allow: null, text: FORM_MESSAGES.unreadable });
    const noBoundary = new Request(URL, { method: "POST", body: "a=1", headers: { "Content-Type": "multipart/form-data" } });
    expect((await refusal(readForm(noBoundary, config))).status).toBe(400);
  });

  it("refuses a body over the limit with 413, by its declared length or as it arrives", async () => {
    const big = new URLSearchParams({ message: "x".repeat(SHOPPER_FORM_MAX_BYTES) });
    expect(await refusal(readForm(new Request(URL, { method: "POST", body: big }), config))).toMatchObject({ status: 413 });

    const chunks = [new TextEncoder().encode("message="), new TextEncoder().encode("y".repeat(3000))];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const undeclared = new Request(URL, {
      method: "POST",
      body: stream,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      duplex: "half",
    } as RequestInit);
    const result = await refusal(readForm(undeclared, config, { maxBytes: 1024 }));
    expect(result).toEqual({ status: 413, allow: null, text: FORM_MESSAGES.tooLarge(1024) });
  });
});

describe("readBodyWithin", () => {
  /** A streamed body of `count` chunks of `size` bytes, failing after them when `failAfter` says so; counts what was read. */
  function streamedBody(count: number, size: number, { failAfter = false } = {}) {
    const state = { sent: 0, cancelled: false };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (state.sent === count) return failAfter ? controller.error(new Error("cut off")) : controller.close();
        state.sent += 1;
        controller.enqueue(new Uint8Array(size));
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { request: new Request("http://x/", { method: "POST", body, duplex: "half" } as RequestInit), state };
  }

  it("gives the whole body within the limit", async () => {
    const { request } = streamedBody(3, 10);
    expect((await readBodyWithin(request, 30))?.byteLength).toBe(30);
  });

  it("past the limit, reads the rest and drops it instead of cancelling the request (its connection carries the 413)", async () => {
    const { request, state } = streamedBody(10, 10);
    expect(await readBodyWithin(request, 25)).toBeNull();
    expect(state).toEqual({ sent: 10, cancelled: false });
  });

  it("past the limit, a body cut off while it is dropped is still just too large", async () => {
    const { request } = streamedBody(10, 10, { failAfter: true });
    expect(await readBodyWithin(request, 25)).toBeNull();
  });
});

describe("a form's fields, counted as its body arrives", () => {
  const boundary = "----formboundary7MA4YWxk";
  const part = (name: string, value = "") => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const multipart = (parts: number) => `${Array.from({ length: parts }, (_, index) => part(`f${index}`)).join("")}--${boundary}--\r\n`;
  /** The body in chunks of `chunkSize` bytes, so delimiters fall across chunks. */
  function post(body: string, contentType: string, chunkSize = 7) {
    const bytes = new TextEncoder().encode(body);
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(offset, offset + chunkSize));
        offset += chunkSize;
      },
    });
    return new Request(URL, { method: "POST", body: stream, headers: { "content-type": contentType }, duplex: "half" } as RequestInit);
  }
  const multipartType = `multipart/form-data; boundary=${boundary}`;

  it("reads a multipart form of as many parts as allowed, each delimiter counted once across chunks", async () => {
    expect(await readFormData(post(multipart(5), multipartType), config, { maxBytes: 10_000, maxFields: 5 })).toMatchObject({ ok: true });
    expect(await readFormData(post(multipart(6), multipartType), config, { maxBytes: 10_000, maxFields: 5 })).toEqual({
      ok: false,
      status: 413,
      message: FORM_MESSAGES.tooManyFields(5),
    });
  });

  it("refuses 100,000 empty parts with a 413 before parsing any, and url-encoded forms past the limit too", async () => {
    const flood = post(multipart(100_000), multipartType, 64 * 1024);
    expect(await refusal(readForm(flood, config, { maxBytes: 20 * 1024 * 1024 }))).toMatchObject({
      status: 413,
      text: FORM_MESSAGES.tooManyFields(MAX_FORM_FIELDS),
    });
    const urlencoded = "application/x-www-form-urlencoded";
    const pairs = (count: number) => Array.from({ length: count }, (_, index) => `a${index}=`).join("&");
    expect(await readForm(post(pairs(MAX_FORM_FIELDS), urlencoded), config)).toHaveProperty("a0", "");
    expect(await refusal(readForm(post(pairs(MAX_FORM_FIELDS + 1), urlencoded), config))).toMatchObject({ status: 413 });
  });
});

describe("parseForm", () => {
  const schema = z.discriminatedUnion("intent", [
    z.object({ intent: z.literal("add"), quantity: z.coerce.number().int().min(1, "At least one.").max(9, "At most nine.") }),
    z.object({ intent: z.literal("clear") }),
  ]);

  it("gives the data, or the first message of each field", () => {
    expect(parseForm(schema, { intent: "add", quantity: "2" })).toEqual({ ok: true, data: { intent: "add", quantity: 2 } });
    expect(parseForm(schema, { intent: "add", quantity: "0" })).toEqual({ ok: false, errors: { quantity: "At least one." } });
    const two = z.object({
      name: z
        .string()
        .min(3, "Too short.")
        .regex(/^[a-z]+$/, "Letters only."),
    });
    expect(parseForm(two, { name: "A" })).toEqual({ ok: false, errors: { name: "Too short." } });
  });

  it("answers an unknown or missing intent with a readable 400", async () => {
    const unknown = await refusal(Promise.resolve().then(() => parseForm(schema, { intent: "launch" })));
    expect(unknown).toEqual({ status: 400, allow: null, text: FORM_MESSAGES.unknownIntent("launch") });
    expect(unknown.text).toContain("“launch”");
    expect((await refusal(Promise.resolve().then(() => parseForm(schema, {})))).text).toBe(FORM_MESSAGES.unknownIntent(""));
  });
});

describe("the one email address rule", () => {
  it.each(["fan@example.com", "  fan@example.com ", "first.last+grill@mail.example.co.uk", "o'brien@example.com"])(
    "accepts %j",
    (email) => {
      expect(isEmailAddress(email)).toBe(true);
    },
  );

  it.each([
    "",
    "fan",
    "fan@",
    "fan@example",
    "a@b.c",
    "fan @example.com",
    "a@@b.com",
    "fan..club@example.com",
    `${"a".repeat(250)}@example.com`,
  ])("refuses %j", (email) => {
    expect(isEmailAddress(email)).toBe(false);
  });

  it("gives the form's own message and the trimmed address", () => {
    const schema = emailAddressSchema("Please enter a valid email address.");
    expect(schema.safeParse(" a@b.co ").data).toBe("a@b.co");
    expect(schema.safeParse("nope").error?.issues[0].message).toBe("Please enter a valid email address.");
    expect(schema.safeParse(42).error?.issues[0].message).toBe("Please enter a valid email address.");
  });
});
