import { randomBytes } from "node:crypto";
import {
  basicAuthCredentials,
  isRecord,
  startFakeHttpServer,
  type FakeResponse,
  type FakeServer,
  type RecordedRequest,
} from "./fake-http-server";

export type { FakeServer, RecordedRequest } from "./fake-http-server";

export const FAKE_AFFIRM_PUBLIC_KEY = "FAKEPUBLICKEY0001";
export const FAKE_AFFIRM_PRIVATE_KEY = "fake-affirm-private-key-0001";

/** The store's settings that point its Affirm driver and affirm.js at this fake. */
export function fakeAffirmSettings(fake: FakeServer): Record<string, string> {
  return {
    AFFIRM_PUBLIC_API_KEY: FAKE_AFFIRM_PUBLIC_KEY,
    AFFIRM_PRIVATE_API_KEY: FAKE_AFFIRM_PRIVATE_KEY,
    AFFIRM_API_BASE: fake.url,
    AFFIRM_JS_URL: `${fake.url}${FAKE_AFFIRM_JS_PATH}`,
  };
}

export interface FakeAffirmCheckout {
  id: string;
  /** The checkout object as we received it. */
  request: Record<string, unknown>;
  /** What Affirm will authorize (the checkout's total unless a test changes it). */
  amount: number;
  /** The checkout's tax_amount in cents (0 when none was sent). */
  taxAmount: number;
  status: "opened" | "confirmed" | "canceled";
  /** The transaction its authorization created: Affirm's own id, unlike the checkout token. */
  transactionId?: string;
}

export interface FakeAffirm extends FakeServer {
  readonly checkouts: Map<string, FakeAffirmCheckout>;
  /** Transactions by their id, as Affirm's Transactions API reads them. */
  readonly transactions: Map<string, Record<string, unknown>>;
  /** The shopper confirms the loan on Affirm's page (without a browser). */
  confirm(checkoutId: string): void;
  /** Back to answering like Affirm after `respondWith`, keeping checkouts and transactions. */
  restore(): void;
}

/**
 * A local stand-in for Affirm (docs.affirm.com), Basic auth with the public
 * and private keys:
 * - `POST /api/v2/checkout/direct` (Direct Checkout): stores the checkout object, answers `{ checkout_id, redirect_url }`;
 *   refuses (400 invalid_field) a total other than the items' unit_price × qty + shipping_amount + tax_amount − discounts;
 * - `GET /checkout/{id}`: Affirm's hosted application page with **Confirm** and **Cancel**; Confirm sends the
 *   shopper to the merchant's user_confirmation_url with `checkout_token` (a 307 keeps the form POST, as
 *   `user_confirmation_url_action: "POST"` asks), Cancel goes to user_cancel_url;
 * - `POST /api/v1/transactions` (authorize a confirmed checkout by its token, honouring `Idempotency-Key`),
 *   answering a transaction whose `id` is Affirm's own (not the checkout token); `GET /api/v1/transactions/{id}`
 *   reads it by that id only; `POST .../{id}/capture`, `/void` and `/refund` move it on, each once
 *   (docs.affirm.com, Transactions API: Authorize, Read, Capture, Void and Refund a Transaction);
 * - `GET /js/v2/affirm.js`: a tiny affirm.js (`window.affirm.ui.ready/refresh`) that fills `.affirm-as-low-as`;
 * - errors as Affirm's body `{ status_code, type, code, message, field }`.
 */
export async function startFakeAffirm(): Promise<FakeAffirm> {
  const checkouts = new Map<string, FakeAffirmCheckout>();
  const transactions = new Map<string, Record<string, unknown>>();
  const idempotent = new Map<string, FakeResponse>();
  let baseUrl = "";

  function answer(request: RecordedRequest): FakeResponse {
    const url = new URL(request.path, "http://fake");
    const page = /^\/checkout\/([A-Z0-9]+)(?:\/(confirm|cancel))?$/.exec(url.pathname);
    if (page) return hostedPage(request, page[1], page[2]);
    if (request.method === "GET" && url.pathname === FAKE_AFFIRM_JS_PATH) {
      return { status: 200, body: FAKE_AFFIRM_JS, headers: { "content-type": "application/javascript; charset=utf-8" } };
    }
    if (!url.pathname.startsWith("/api/")) return affirmError(404, "not_found", "not-found", "Not found.");
    const credentials = basicAuthCredentials(request.headers);
    if (credentials?.username !== FAKE_AFFIRM_PUBLIC_KEY || credentials.password !== FAKE_AFFIRM_PRIVATE_KEY) {
      return affirmError(401, "unauthorized", "public-api-key-invalid", "Please provide a valid public API key.");
    }
    if (request.method === "POST" && url.pathname === "/api/v2/checkout/direct") return directCheckout(request);
    if (request.method === "POST" && url.pathname === "/api/v1/transactions") return authorize(request);
    const read = /^\/api\/v1\/transactions\/([^/]+)$/.exec(url.pathname);
    if (request.method === "GET" && read) {
      const transaction = transactions.get(decodeURIComponent(read[1]));
      return transaction
        ? { status: 200, body: transaction }
        : affirmError(404, "not_found", "transaction-not-found", "The transaction could not be found.");
    }
    const settlement = /^\/api\/v1\/transactions\/([^/]+)\/(capture|void|refund)$/.exec(url.pathname);
    if (request.method === "POST" && settlement)
      return settleOnce(request, decodeURIComponent(settlement[1]), settlement[2] as SettleAction);
    return affirmError(404, "not_found", "not-found", "Not found.");
  }

  /** Affirm's capture and void (of an authorized loan) and refund (of a captured one), each once; a repeated Idempotency-Key answers as before. */
  function settleOnce(request: RecordedRequest, id: string, action: SettleAction): FakeResponse {
    const key = typeof request.headers["idempotency-key"] === "string" ? `${action}:${request.headers["idempotency-key"]}` : null;
    const remembered = key ? idempotent.get(key) : undefined;
    if (remembered) return remembered;
    const result = settle(id, action, request.body);
    if (key && result.status < 500) idempotent.set(key, result);
    return result;
  }

  /**
   * A refund's `amount` gives back that much of a captured loan (partially_refunded until the whole is back), never more than is
   * left (https://docs.affirm.com/developers/reference/refund_transaction).
   */
  function settle(id: string, action: SettleAction, body: unknown): FakeResponse {
    const transaction = transactions.get(id);
    if (!transaction) return affirmError(404, "not_found", "transaction-not-found", "The transaction could not be found.");
    const allowed =
      action === "refund"
        ? transaction.status === "captured" || transaction.status === "partially_refunded"
        : transaction.status === "authorized";
    if (!allowed) return affirmError(400, "invalid_request", "transaction-state", `The transaction cannot be ${action}d now.`);
    if (action === "refund") {
      const left = Number(transaction.amount) - Number(transaction.amount_refunded ?? 0);
      const asked = isRecord(body) && typeof body.amount === "number" ? body.amount : left;
      if (!Number.isInteger(asked) || asked <= 0 || asked > left)
        return affirmError(400, "invalid_request", "invalid_amount", `The refund amount must be between 1 and ${left}.`, "amount");
      transaction.amount_refunded = Number(transaction.amount_refunded ?? 0) + asked;
      transaction.status = asked === left ? "refunded" : "partially_refunded";
      return { status: 200, body: { id: `evt_${randomBytes(6).toString("hex")}`, type: action, transaction_id: id, amount: asked } };
    }
    transaction.status = action === "capture" ? "captured" : "voided";
    return {
      status: 200,
      body: { id: `evt_${randomBytes(6).toString("hex")}`, type: action, transaction_id: id, amount: transaction.amount },
    };
  }

  function directCheckout(request: RecordedRequest): FakeResponse {
    const body = request.body;
    if (!isRecord(body)) return affirmError(400, "invalid_request", "invalid_field", "Invalid JSON body.");
    const merchant = isRecord(body.merchant) ? body.merchant : null;
    for (const field of ["user_confirmation_url", "user_cancel_url"]) {
      if (typeof merchant?.[field] !== "string")
        return affirmError(400, "invalid_request", "invalid_field", `${field} is required.`, `merchant.${field}`);
    }
    if (!Array.isArray(body.items) || body.items.length === 0)
      return affirmError(400, "invalid_request", "invalid_field", "items is required.", "items");
    if (typeof body.total !== "number" || !Number.isInteger(body.total) || body.total <= 0) {
      return affirmError(400, "invalid_request", "invalid_field", "total must be a positive integer in cents.", "total");
    }
    const refusal = totalRefusal(body);
    if (refusal) return refusal;
    const id = randomBytes(8).toString("hex").toUpperCase();
    const taxAmount = typeof body.tax_amount === "number" ? body.tax_amount : 0;
    checkouts.set(id, { id, request: body, amount: body.total, taxAmount, status: "opened" });
    return { status: 200, body: { checkout_id: id, redirect_url: `${baseUrl}/checkout/${id}` } };
  }

  function authorize(request: RecordedRequest): FakeResponse {
    const key = typeof request.headers["idempotency-key"] === "string" ? request.headers["idempotency-key"] : null;
    const remembered = key ? idempotent.get(key) : undefined;
    if (remembered) return remembered;
    const result = authorizeOnce(request.body);
    if (key && result.status < 500) idempotent.set(key, result);
    return result;
  }

  function authorizeOnce(body: unknown): FakeResponse {
    const token = isRecord(body) ? body.transaction_id : undefined;
    if (typeof token !== "string" || token === "")
      return affirmError(400, "invalid_request", "invalid_field", "transaction_id is required.", "transaction_id");
    const checkout = checkouts.get(token);
    if (!checkout) return affirmError(404, "not_found", "checkout-not-found", "The checkout could not be found.", "transaction_id");
    if (checkout.transactionId)
      return affirmError(
        400,
        "invalid_request",
        "checkout-token-used",
        "This checkout token has already been authorized.",
        "transaction_id",
      );
    if (checkout.status !== "confirmed")
      return affirmError(402, "invalid_request", "auth-declined", "Charge authorization hold declined.", "transaction_id");
    const orderId = isRecord(body) && typeof body.order_id === "string" ? body.order_id : undefined;
    const created = new Date();
    const transactionId = `${randomBytes(2).toString("hex")}-${randomBytes(2).toString("hex")}`.toUpperCase();
    const transaction = {
      id: transactionId,
      checkout_id: checkout.id,
      ...(orderId ? { order_id: orderId } : {}),
      status: "authorized",
      amount: checkout.amount,
      amount_refunded: 0,
      currency: typeof checkout.request.currency === "string" ? checkout.request.currency : "USD",
      created: created.toISOString(),
      authorization_expiration: new Date(created.getTime() + 30 * 86_400_000).toISOString(),
      provider_id: 1,
      events: [],
    };
    checkout.transactionId = transactionId;
    transactions.set(transactionId, transaction);
    return { status: 200, body: transaction };
  }

  function hostedPage(request: RecordedRequest, id: string, action: string | undefined): FakeResponse {
    const checkout = checkouts.get(id);
    if (!checkout) return { status: 404, body: "<!doctype html><title>Affirm</title><p>Checkout not found.</p>", headers: html };
    const merchant = checkout.request.merchant as Record<string, string>;
    if (request.method === "POST" && action === "confirm") {
      if (checkout.status !== "canceled") checkout.status = "confirmed";
      // 307 repeats this POST (its body is `checkout_token=...`) at the merchant's confirmation URL.
      return { status: 307, headers: { location: merchant.user_confirmation_url } };
    }
    if (request.method === "POST" && action === "cancel") {
      if (checkout.status === "opened") checkout.status = "canceled";
      return { status: 303, headers: { location: merchant.user_cancel_url } };
    }
    const dollars = (checkout.amount / 100).toLocaleString("en-US", { style: "currency", currency: "USD" });
    return {
      status: 200,
      headers: html,
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Affirm (fake)</title></head><body>
<h1>Affirm (local fake)</h1><p>Pay ${dollars} over time with ${escapeHtml(String(merchant.name ?? "the merchant"))}.</p>
<form method="post" action="/checkout/${id}/confirm"><input type="hidden" name="checkout_token" value="${id}"><button type="submit">Confirm</button></form>
<form method="post" action="/checkout/${id}/cancel"><button type="submit">Cancel</button></form>
</body></html>`,
    };
  }

  const server = await startFakeHttpServer(answer);
  baseUrl = server.url;
  const reset = server.reset.bind(server);
  return Object.assign(server, {
    checkouts,
    transactions,
    confirm(checkoutId: string) {
      const checkout = checkouts.get(checkoutId);
      if (!checkout) throw new Error(`no fake Affirm checkout ${checkoutId}`);
      checkout.status = "confirmed";
    },
    restore() {
      server.respondWith(answer);
    },
    reset() {
      reset();
      checkouts.clear();
      transactions.clear();
      idempotent.clear();
    },
  });
}

type SettleAction = "capture" | "void" | "refund";

const isCents = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0;

/** A checkout's amounts, each whole cents, must add up to its total: items + shipping_amount + tax_amount − discounts. */
function totalRefusal(body: Record<string, unknown>): FakeResponse | null {
  const fieldError = (field: string, message: string) => affirmError(400, "invalid_request", "invalid_field", message, field);
  let expected = 0;
  for (const [index, item] of (Array.isArray(body.items) ? body.items : []).entries()) {
    const line = isRecord(item) ? item : {};
    if (!isCents(line.unit_price)) return fieldError(`items.${index}.unit_price`, "unit_price must be an integer in cents.");
    if (!isCents(line.qty) || line.qty === 0) return fieldError(`items.${index}.qty`, "qty must be a positive integer.");
    expected += line.unit_price * line.qty;
  }
  for (const field of ["shipping_amount", "tax_amount"]) {
    const amount = body[field] ?? 0;
    if (!isCents(amount)) return fieldError(field, `${field} must be an integer in cents.`);
    expected += amount;
  }
  for (const [code, discount] of Object.entries(isRecord(body.discounts) ? body.discounts : {})) {
    const amount = isRecord(discount) ? discount.discount_amount : undefined;
    if (!isCents(amount)) return fieldError(`discounts.${code}.discount_amount`, "discount_amount must be an integer in cents.");
    expected -= amount;
  }
  if (body.total === expected) return null;
  return fieldError("total", `total must equal the items' prices plus shipping_amount and tax_amount, less discounts (${expected}).`);
}

const html = { "content-type": "text/html; charset=utf-8" };

export const FAKE_AFFIRM_JS_PATH = "/js/v2/affirm.js";

/** Reads `_affirm_config` like affirm.js and renders each `.affirm-as-low-as` from its data-amount (cents), 36 months. */
const FAKE_AFFIRM_JS = `(function () {
  var config = window._affirm_config || {};
  function refresh() {
    document.querySelectorAll(".affirm-as-low-as").forEach(function (element) {
      var cents = Number(element.getAttribute("data-amount"));
      if (!cents || !config.public_api_key) return;
      element.textContent = "Starting at $" + Math.ceil(cents / 100 / 36) + "/mo with Affirm (fake)";
    });
  }
  window.affirm = { ui: { ready: function (callback) { callback(); }, refresh: refresh } };
})();
`;

/** Affirm's error body. */
export function affirmError(status: number, type: string, code: string, message: string, field?: string): FakeResponse {
  return { status, body: { status_code: status, type, code, message, ...(field ? { field } : {}) } };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[char] ?? char);
}
