import { describe, expect, it } from "vitest";
import {
  AFTER_SALE_UPLOAD_MAX_BYTES,
  bodyLimitFor,
  isJsonRoute,
  oversizeAnswer,
  REQUEST_BODY_MAX_BYTES,
  CSV_IMPORT_UPLOAD_MAX_BYTES,
} from "./body-limits";

describe("body limits", () => {
  it("lets provider webhooks carry more than a shopper's form", () => {
    expect(bodyLimitFor("/api/paypal/webhook")).toBeGreaterThan(REQUEST_BODY_MAX_BYTES);
    expect(bodyLimitFor("/api/authorizenet/webhook")).toBeGreaterThan(REQUEST_BODY_MAX_BYTES);
    expect(bodyLimitFor("/api/easypost/webhook")).toBeGreaterThan(REQUEST_BODY_MAX_BYTES);
    expect(bodyLimitFor("/api/stripe")).toBe(REQUEST_BODY_MAX_BYTES);
  });

  it("lets only the return and defect claim forms carry photos", () => {
    expect(bodyLimitFor("/order-status/ABC2345678/return")).toBe(AFTER_SALE_UPLOAD_MAX_BYTES);
    expect(bodyLimitFor("/order-status/ABC2345678/claim")).toBe(AFTER_SALE_UPLOAD_MAX_BYTES);
    expect(bodyLimitFor("/order-status/ABC2345678")).toBe(REQUEST_BODY_MAX_BYTES);
    expect(bodyLimitFor("/order-status/ABC2345678/return/x")).toBe(REQUEST_BODY_MAX_BYTES);
    expect(bodyLimitFor("/contact")).toBe(REQUEST_BODY_MAX_BYTES);
  });

  it("lets the stock desk's CSV upload carry a file of 1 MB, and nothing near 50 MB", () => {
    expect(bodyLimitFor("/stock/import")).toBe(CSV_IMPORT_UPLOAD_MAX_BYTES);
    expect(bodyLimitFor("/Stock/Import/")).toBe(CSV_IMPORT_UPLOAD_MAX_BYTES);
    expect(bodyLimitFor("/catalog/import")).toBe(CSV_IMPORT_UPLOAD_MAX_BYTES);
    expect(bodyLimitFor("/catalog/import/x")).toBe(REQUEST_BODY_MAX_BYTES);
    expect(CSV_IMPORT_UPLOAD_MAX_BYTES).toBeGreaterThan(1024 * 1024);
    expect(CSV_IMPORT_UPLOAD_MAX_BYTES).toBeLessThan(50 * 1024 * 1024);
    expect(bodyLimitFor("/stock/import/0b7c1a6e-0000-4000-8000-000000000000")).toBe(REQUEST_BODY_MAX_BYTES);
    expect(bodyLimitFor("/stock/blaze-1")).toBe(REQUEST_BODY_MAX_BYTES);
  });

  it("answers JSON routes with { error } and pages with a line of text", () => {
    expect(isJsonRoute("/api/stripe")).toBe(true);
    expect(isJsonRoute("/newPurchase")).toBe(true);
    expect(isJsonRoute("/contact")).toBe(false);
    const json = oversizeAnswer("/api/stripe", REQUEST_BODY_MAX_BYTES);
    expect(json.contentType).toContain("application/json");
    expect(JSON.parse(json.body)).toEqual({ error: "Payload Too Large: request bodies are limited to 64 KB." });
    expect(oversizeAnswer("/contact", REQUEST_BODY_MAX_BYTES)).toEqual({
      contentType: "text/plain; charset=utf-8",
      body: "Payload Too Large: request bodies are limited to 64 KB.\n",
    });
  });
});
