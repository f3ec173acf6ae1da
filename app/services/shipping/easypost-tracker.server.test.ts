import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  easyPostTracker,
  easyPostTrackerEvent,
  FAKE_EASYPOST_API_KEY,
  startFakeEasyPost,
  type FakeServer,
} from "../../../tests/fakes/easypost";
import {
  createEasyPostTracker,
  easyPostSignature,
  parseTrackerEvent,
  selectShipmentTracker,
  verifyEasyPostSignature,
} from "./easypost-tracker.server";
import { ShippingRateError } from "./types";

describe("EasyPost's tracker driver", () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakeEasyPost();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it("creates a Tracker with Basic auth, the tracking code and the carrier", async () => {
    const tracker = createEasyPostTracker({ apiKey: FAKE_EASYPOST_API_KEY, baseUrl: fake.url });
    const state = await tracker.track({ trackingCode: "1Z999AA10123456784", carrier: "UPS" });
    expect(state).toMatchObject({ id: expect.stringMatching(/^trk_/), status: "pre_transit", deliveredAt: null });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: "POST",
      path: "/v2/trackers",
      body: { tracker: { tracking_code: "1Z999AA10123456784", carrier: "UPS" } },
    });
    expect(fake.requests[0].headers.authorization).toBe(`Basic ${Buffer.from(`${FAKE_EASYPOST_API_KEY}:`).toString("base64")}`);
  });

  it("leaves the carrier out for EasyPost to detect, and reads a delivered tracker's delivery scan", async () => {
    fake.respondWith(201, easyPostTracker("PRO123", "Estes", "2026-11-26T16:30:00Z"));
    const state = await createEasyPostTracker({ apiKey: "k", baseUrl: fake.url }).track({ trackingCode: "PRO123", carrier: null });
    expect(fake.requests[0].body).toEqual({ tracker: { tracking_code: "PRO123" } });
    expect(state?.deliveredAt?.toISOString()).toBe("2026-11-26T16:30:00.000Z");
  });

  it("throws EasyPost's refusal, a garbled answer and an unreachable host as errors the job queue retries", async () => {
    const tracker = createEasyPostTracker({ apiKey: "k", baseUrl: fake.url });
    fake.respondWith(422, { error: { code: "TRACKER.TRACKING_CODE.INVALID", message: "Invalid tracking code." } });
    await expect(tracker.track({ trackingCode: "x", carrier: null })).rejects.toThrow(/422: Invalid tracking code/);
    fake.respondWith(200, { hello: "world" });
    await expect(tracker.track({ trackingCode: "x", carrier: null })).rejects.toBeInstanceOf(ShippingRateError);
    const offline = createEasyPostTracker({ apiKey: "k", baseUrl: "http://127.0.0.1:9", timeoutMs: 2_000 });
    await expect(offline.track({ trackingCode: "x", carrier: null })).rejects.toThrow(/could not be reached/);
  });

  it("is the offline stand-in without an API key, which follows nothing and says so", async () => {
    const standIn = selectShipmentTracker({});
    expect(standIn.isStandIn).toBe(true);
    expect(standIn.name).toMatch(/offline/);
    await expect(standIn.track({ trackingCode: "1Z", carrier: "UPS" })).resolves.toBeNull();
    expect(selectShipmentTracker({ EASYPOST_API_KEY: "k" }).isStandIn).toBe(false);
  });
});

describe("EasyPost's webhook signature", () => {
  const body = JSON.stringify(easyPostTrackerEvent(easyPostTracker("1Z1", "UPS", "2026-11-26T16:30:00Z")));

  it("is hmac-sha256-hex= and the hex HMAC-SHA256 of the raw body", () => {
    // Computed independently: printf '%s' '{"a":1}' | openssl dgst -sha256 -hmac secret
    expect(easyPostSignature("secret", '{"a":1}')).toBe("hmac-sha256-hex=aa9e2e3575f5d7098b6caccd790888c36d5fdb63342a73bada2d6a51747a8494");
    expect(easyPostSignature("secret", body)).toMatch(/^hmac-sha256-hex=[0-9a-f]{64}$/);
    expect(verifyEasyPostSignature("secret", body, easyPostSignature("secret", body))).toBe(true);
  });

  it("refuses a missing secret or header, another secret, a changed body and a truncated signature", () => {
    const signature = easyPostSignature("secret", body);
    expect(verifyEasyPostSignature(undefined, body, signature)).toBe(false);
    expect(verifyEasyPostSignature("secret", body, null)).toBe(false);
    expect(verifyEasyPostSignature("other", body, signature)).toBe(false);
    expect(verifyEasyPostSignature("secret", `${body} `, signature)).toBe(false);
    expect(verifyEasyPostSignature("secret", body, signature.slice(0, -2))).toBe(false);
    expect(verifyEasyPostSignature("secret", body, signature.replace("hmac-sha256-hex=", ""))).toBe(false);
  });

  it("reads tracker events, ignores other events and calls anything else malformed", () => {
    expect(parseTrackerEvent(body)).toMatchObject({ kind: "tracker", tracker: { status: "delivered" } });
    expect(parseTrackerEvent(JSON.stringify({ object: "Event", description: "batch.created", result: {} }))).toEqual({ kind: "ignored" });
    expect(parseTrackerEvent("not json")).toEqual({ kind: "malformed" });
    expect(parseTrackerEvent(JSON.stringify({ object: "Event", description: "tracker.updated", result: { id: 1 } }))).toEqual({
      kind: "malformed",
    });
  });
});
