import { randomBytes } from "node:crypto";
import {
  basicAuthCredentials,
  bearerToken,
  isRecord,
  startFakeHttpServer,
  type FakeResponse,
  type FakeServer,
  type RecordedRequest,
} from "./fake-http-server";

export type { FakeServer, RecordedRequest } from "./fake-http-server";

/**
 * A local stand-in for PayPal (https://developer.paypal.com/docs/api/orders/v2/), API and web host on one port:
 * - `POST /v1/oauth2/token` (Basic client id:secret, `grant_type=client_credentials`);
 * - Orders v2: `POST /v2/checkout/orders`, `GET /v2/checkout/orders/{id}`, `POST /v2/checkout/orders/{id}/capture`
 *   (Bearer token, `PayPal-Request-Id` idempotency, PayPal's error bodies `{ name, message, debug_id, details }`); a create
 *   whose items do not add up to amount.breakdown.item_total, or whose value is not the breakdown's sum, gets PayPal's
 *   422 ITEM_TOTAL_MISMATCH or AMOUNT_MISMATCH;
 * - the hosted approval page `GET /checkoutnow?token={id}` with Approve / Cancel, which send the shopper to the
 *   order's return_url (`token`, `PayerID` appended) or cancel_url as PayPal does;
 * - a minimal JS SDK at `GET /sdk/js` exposing `window.paypal.Buttons(...)`, enough for @paypal/react-paypal-js:
 *   its button calls createOrder, approves the order here, then calls onApprove({ orderID, payerID }).
 * Point the store at it with PAYPAL_API_BASE and PAYPAL_SDK_BASE = `fake.url`.
 */

export const FAKE_PAYPAL_CLIENT_ID = "fake-paypal-client-id";
export const FAKE_PAYPAL_CLIENT_SECRET = "fake-paypal-client-secret";
/** The webhook id the fake signs its events for (PAYPAL_WEBHOOK_ID). */
export const FAKE_PAYPAL_WEBHOOK_ID = "WH-FAKE-4JV27532YU961412K";

/** The store's settings that point its PayPal driver and JS SDK at this fake. */
export function fakePayPalSettings(fake: FakeServer): Record<string, string> {
  return {
    PAYPAL_CLIENT_ID: FAKE_PAYPAL_CLIENT_ID,
    PAYPAL_CLIENT_SECRET: FAKE_PAYPAL_CLIENT_SECRET,
    PAYPAL_API_BASE: fake.url,
    PAYPAL_SDK_BASE: fake.url,
  };
}

/** Where a fake delivers a webhook: the store's URL, or a route action called in the test's process. */
export type WebhookTarget = string | ((request: Request) => Promise<Response>);

export async function deliverWebhook(target: WebhookTarget, body: string, headers: Record<string, string>): Promise<Response> {
  const init = { method: "POST", headers: { "content-type": "application/json", ...headers }, body };
  return typeof target === "string" ? fetch(target, init) : target(new Request("http://store.test/webhook", init));
}

/** What capturing an approved order does (decided when the order is approved). */
export type CaptureOutcome = "complete" | "instrument-declined" | "capture-declined" | "pending";

export interface FakeMoney {
  currency_code: string;
  value: string;
}

export interface FakeOrder {
  id: string;
  status: "CREATED" | "PAYER_ACTION_REQUIRED" | "APPROVED" | "COMPLETED" | "VOIDED";
  intent: string;
  /** The purchase unit as created: its amount (with the breakdown, when sent) and items are kept for assertions. */
  purchaseUnit: Record<string, unknown> & {
    amount: FakeMoney & { breakdown?: Record<string, FakeMoney> };
    items?: Record<string, unknown>[];
  };
  returnUrl: string | null;
  cancelUrl: string | null;
  payerId: string | null;
  captureOutcome: CaptureOutcome;
  capture: Record<string, unknown> | null;
  createTime: string;
}

export interface FakePayPalState {
  orders: Map<string, FakeOrder>;
  tokens: Set<string>;
  /** Outcome given to orders approved from now on. */
  captureOutcome: CaptureOutcome;
  /** When set, captures report this value instead of the order's (a provider reporting another amount). */
  capturedValueOverride: string | null;
  /** Token lifetime reported by the token endpoint, in seconds. */
  tokenLifetimeSeconds: number;
  /** When false, /sdk/js answers 503 (a script that fails to load). */
  sdkAvailable: boolean;
}

export interface FakePayPal extends FakeServer {
  paypal: FakePayPalState;
  /** The provider-like answer, for handlers that change only some calls. */
  answer(request: RecordedRequest): FakeResponse;
  /** The shopper approves the order (what PayPal's pages or buttons do). */
  approveOrder(orderId: string): FakeOrder;
  /** Requests to the REST API only (not the SDK or the hosted page). */
  apiRequests(): RecordedRequest[];
  /**
   * Sends a webhook event about an order as PayPal does: CHECKOUT.ORDER.* carry the order,
   * PAYMENT.CAPTURE.* its capture with the order id in supplementary_data. "valid" signs it so
   * verify-webhook-signature answers SUCCESS; "wrong" sends a signature PayPal never made; "none" no headers.
   */
  sendWebhook(
    target: WebhookTarget,
    eventType: string,
    orderId: string,
    options?: { signature?: "valid" | "wrong" | "none"; webhookId?: string },
  ): Promise<Response>;
  /** Refunds made through POST /v2/payments/captures/{id}/refund, by capture id: its last refund (`refundsOf` for every one). */
  refunds: Map<string, { id: string; captureId: string; status: string }>;
  /** Every refund of a capture, in order, with its amount in cents (partial refunds make several). */
  refundsOf(captureId: string): { id: string; captureId: string; status: string; amountCents: number }[];
}

export async function startFakePayPal(
  credentials: { clientId: string; clientSecret: string } = { clientId: FAKE_PAYPAL_CLIENT_ID, clientSecret: FAKE_PAYPAL_CLIENT_SECRET },
): Promise<FakePayPal> {
  const state: FakePayPalState = {
    orders: new Map(),
    tokens: new Set(),
    captureOutcome: "complete",
    capturedValueOverride: null,
    tokenLifetimeSeconds: 32_400,
    sdkAvailable: true,
  };
  /** Earlier answers by PayPal-Request-Id and operation: a retried call gets the same answer. */
  const idempotent = new Map<string, FakeResponse>();

  function approveOrder(orderId: string): FakeOrder {
    const order = state.orders.get(orderId);
    if (!order) throw new Error(`fake PayPal: no order ${orderId}`);
    if (order.status === "CREATED" || order.status === "PAYER_ACTION_REQUIRED") {
      order.status = "APPROVED";
      order.payerId = randomId(13);
      order.captureOutcome = state.captureOutcome;
    }
    return order;
  }

  function answer(request: RecordedRequest): FakeResponse {
    const url = new URL(request.path, "http://fake.invalid");
    const origin = `http://${request.headers.host ?? "127.0.0.1"}`;
    const route = `${request.method} ${url.pathname}`;

    if (route === "GET /sdk/js") return sdkScript(url, origin);
    if (route === "GET /checkoutnow") return approvalPage(url.searchParams.get("token") ?? "");
    if (route === "POST /checkoutnow/approve" || route === "POST /checkoutnow/cancel") {
      return leaveApprovalPage(url.searchParams.get("token") ?? "", route.endsWith("approve"));
    }
    if (route === "POST /fake-sdk/approve") return sdkApprove(url.searchParams.get("token") ?? "");
    if (route === "POST /v1/oauth2/token") return issueToken(request);

    if (route === "POST /v1/notifications/verify-webhook-signature" || /^\/v2\/payments\/captures\/[^/]+\/refund$/.test(url.pathname)) {
      const token = bearerToken(request.headers);
      if (!token || !state.tokens.has(token)) return paypalError(401, "AUTHENTICATION_FAILURE", "Authentication failed.");
      if (route === "POST /v1/notifications/verify-webhook-signature") return verifySignature(request);
      const captureId = decodeURIComponent(url.pathname.split("/")[4] ?? "");
      return remember(request, `refund ${captureId}`, () => refundCapture(captureId, request.body));
    }

    const orderPath = /^\/v2\/checkout\/orders(?:\/([^/]+)(\/capture)?)?$/.exec(url.pathname);
    if (!orderPath) return paypalError(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.");
    const token = bearerToken(request.headers);
    if (!token || !state.tokens.has(token)) {
      return {
        status: 401,
        body: {
          name: "AUTHENTICATION_FAILURE",
          message: "Authentication failed due to invalid authentication credentials or a missing Authorization header.",
          debug_id: debugId(),
          links: [{ href: "https://developer.paypal.com/docs/api/overview/#error", rel: "information_link" }],
        },
      };
    }
    const [, rawId, capture] = orderPath;
    const orderId = rawId ? decodeURIComponent(rawId) : undefined;
    if (!orderId && request.method === "POST") return remember(request, "create", () => createOrder(request, origin));
    if (orderId && !capture && request.method === "GET") return showOrder(orderId, origin);
    if (orderId && capture && request.method === "POST")
      return remember(request, `capture ${orderId}`, () => captureOrder(orderId, origin));
    return paypalError(405, "METHOD_NOT_SUPPORTED", "The server does not implement the requested HTTP method.");
  }

  function remember(request: RecordedRequest, operation: string, run: () => FakeResponse): FakeResponse {
    const requestId = request.headers["paypal-request-id"];
    if (typeof requestId !== "string") return run();
    const key = `${operation} ${requestId}`;
    const earlier = idempotent.get(key);
    if (earlier) {
      // Replays of a create answer the current order, as PayPal does.
      const id = isRecord(earlier.body) ? String(earlier.body.id ?? "") : "";
      const order = state.orders.get(id);
      return order && operation === "create" ? { status: 200, body: orderBody(order, `http://${request.headers.host}`) } : earlier;
    }
    const response = run();
    if (response.status < 300) idempotent.set(key, response);
    return response;
  }

  /** Events this fake signed, by transmission id: what verify-webhook-signature checks against. */
  const signedEvents = new Map<string, { signature: string; webhookId: string; body: string }>();
  const refunds = new Map<string, { id: string; captureId: string; status: string }>();

  function verifySignature(request: RecordedRequest): FakeResponse {
    const body = isRecord(request.body) ? request.body : {};
    const signed = signedEvents.get(String(body.transmission_id ?? ""));
    const matches =
      signed !== undefined &&
      body.transmission_sig === signed.signature &&
      body.webhook_id === signed.webhookId &&
      body.webhook_id === FAKE_PAYPAL_WEBHOOK_ID &&
      JSON.stringify(body.webhook_event) === signed.body;
    return { status: 200, body: { verification_status: matches ? "SUCCESS" : "FAILURE" } };
  }

  const allRefunds: { id: string; captureId: string; status: string; amountCents: number }[] = [];

  /**
   * A refund of a capture: the body's `amount` refunds that much (the capture becomes PARTIALLY_REFUNDED), none the rest
   * (https://developer.paypal.com/docs/api/payments/v2/#captures_refund).
   */
  function refundCapture(captureId: string, body: unknown): FakeResponse {
    const order = [...state.orders.values()].find((candidate) => candidate.capture?.id === captureId);
    if (!order?.capture) return paypalError(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.");
    if (order.capture.status !== "COMPLETED" && order.capture.status !== "PARTIALLY_REFUNDED")
      return unprocessable("CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded.");
    const captured = Math.round(Number((order.capture.amount as { value: string }).value) * 100);
    const left =
      captured - allRefunds.filter((refund) => refund.captureId === captureId).reduce((sum, refund) => sum + refund.amountCents, 0);
    const amount = isRecord(body) && isRecord(body.amount) ? body.amount : null;
    const asked = amount ? Math.round(Number(amount.value) * 100) : left;
    if (!Number.isInteger(asked) || asked <= 0 || (amount && amount.currency_code !== "USD"))
      return unprocessable("INVALID_PARAMETER_VALUE", "The amount is not valid.");
    if (asked > left)
      return unprocessable(
        "REFUND_AMOUNT_EXCEEDED",
        "The refund amount must be less than or equal to the capture amount that has not yet been refunded.",
      );
    order.capture.status = asked === left ? "REFUNDED" : "PARTIALLY_REFUNDED";
    const refund = { id: randomId(17), captureId, status: "COMPLETED" };
    refunds.set(captureId, refund);
    allRefunds.push({ ...refund, amountCents: asked });
    return { status: 201, body: { id: refund.id, status: refund.status } };
  }

  async function sendWebhook(
    target: WebhookTarget,
    eventType: string,
    orderId: string,
    { signature = "valid", webhookId = FAKE_PAYPAL_WEBHOOK_ID }: { signature?: "valid" | "wrong" | "none"; webhookId?: string } = {},
  ): Promise<Response> {
    const order = state.orders.get(orderId);
    const resource = eventType.startsWith("PAYMENT.CAPTURE.")
      ? { ...(order?.capture ?? { id: randomId(17) }), supplementary_data: { related_ids: { order_id: orderId } } }
      : order
        ? orderBody(order, "https://api-m.sandbox.paypal.com")
        : { id: orderId };
    const event = {
      id: `WH-${randomId(20)}`,
      event_version: "1.0",
      create_time: new Date().toISOString(),
      resource_type: eventType.startsWith("PAYMENT.CAPTURE.") ? "capture" : "checkout-order",
      event_type: eventType,
      summary: `Event ${eventType}`,
      resource,
    };
    const body = JSON.stringify(event);
    const transmissionId = randomBytes(16).toString("hex");
    const sig = randomBytes(32).toString("base64");
    signedEvents.set(transmissionId, { signature: sig, webhookId, body: JSON.stringify(JSON.parse(body)) });
    const headers: Record<string, string> =
      signature === "none"
        ? {}
        : {
            "paypal-transmission-id": transmissionId,
            "paypal-transmission-time": new Date().toISOString(),
            "paypal-transmission-sig": signature === "valid" ? sig : randomBytes(32).toString("base64"),
            "paypal-cert-url": "https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-fake",
            "paypal-auth-algo": "SHA256withRSA",
          };
    return deliverWebhook(target, body, headers);
  }

  function issueToken(request: RecordedRequest): FakeResponse {
    const sent = basicAuthCredentials(request.headers);
    const grant = new URLSearchParams(request.rawBody).get("grant_type");
    if (!sent || sent.username !== credentials.clientId || sent.password !== credentials.clientSecret) {
      return { status: 401, body: { error: "invalid_client", error_description: "Client Authentication failed" } };
    }
    if (grant !== "client_credentials") {
      return { status: 400, body: { error: "unsupported_grant_type", error_description: "Grant Type is NULL" } };
    }
    const accessToken = `A21AA${randomBytes(24).toString("base64url")}`;
    state.tokens.add(accessToken);
    return {
      status: 200,
      body: {
        scope: "https://uri.paypal.com/services/payments/payment",
        access_token: accessToken,
        token_type: "Bearer",
        app_id: "APP-80W284485P519543T",
        expires_in: state.tokenLifetimeSeconds,
        nonce: `${new Date().toISOString()}${randomId(8)}`,
      },
    };
  }

  function createOrder(request: RecordedRequest, origin: string): FakeResponse {
    const body = isRecord(request.body) ? request.body : null;
    const units = body && Array.isArray(body.purchase_units) ? body.purchase_units : [];
    const unit = units[0];
    if (!body)
      return paypalError(
        400,
        "INVALID_REQUEST",
        "Request is not well-formed, syntactically incorrect, or violates schema.",
        "MALFORMED_REQUEST_JSON",
      );
    if (body.intent !== "CAPTURE" && body.intent !== "AUTHORIZE") {
      return invalid("/intent", "INVALID_PARAMETER_VALUE", "The value of a field is invalid.");
    }
    if (units.length !== 1 || !isRecord(unit) || !isRecord(unit.amount)) {
      return invalid("/purchase_units/0/amount", "MISSING_REQUIRED_PARAMETER", "A required field / parameter is missing.");
    }
    const { currency_code: currency, value } = unit.amount;
    if (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency)) {
      return invalid("/purchase_units/0/amount/currency_code", "INVALID_PARAMETER_VALUE", "The value of a field is invalid.");
    }
    if (typeof value !== "string" || !MONEY_VALUE.test(value) || Number(value) <= 0) {
      return invalid("/purchase_units/0/amount/value", "DECIMAL_PRECISION", DECIMAL_PRECISION);
    }
    const refusal = itemisationRefusal(unit, unit.amount);
    if (refusal) return refusal;
    const breakdown = isRecord(unit.amount.breakdown) ? { breakdown: unit.amount.breakdown as Record<string, FakeMoney> } : {};
    const paypalSource = isRecord(body.payment_source) && isRecord(body.payment_source.paypal) ? body.payment_source.paypal : null;
    const context = isRecord(paypalSource?.experience_context)
      ? paypalSource.experience_context
      : isRecord(body.application_context)
        ? body.application_context
        : {};
    const order: FakeOrder = {
      id: randomId(17),
      status: paypalSource ? "PAYER_ACTION_REQUIRED" : "CREATED",
      intent: body.intent,
      purchaseUnit: { reference_id: "default", ...unit, amount: { currency_code: currency, value, ...breakdown } },
      returnUrl: typeof context.return_url === "string" ? context.return_url : null,
      cancelUrl: typeof context.cancel_url === "string" ? context.cancel_url : null,
      payerId: null,
      captureOutcome: state.captureOutcome,
      capture: null,
      createTime: new Date().toISOString(),
    };
    state.orders.set(order.id, order);
    return { status: 201, body: orderBody(order, origin) };
  }

  function showOrder(orderId: string, origin: string): FakeResponse {
    const order = state.orders.get(orderId);
    return order ? { status: 200, body: orderBody(order, origin) } : orderNotFound(orderId);
  }

  function captureOrder(orderId: string, origin: string): FakeResponse {
    const order = state.orders.get(orderId);
    if (!order) return orderNotFound(orderId);
    if (order.status === "COMPLETED") {
      return unprocessable("ORDER_ALREADY_CAPTURED", "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.");
    }
    if (order.status !== "APPROVED") {
      return unprocessable(
        "ORDER_NOT_APPROVED",
        "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
      );
    }
    if (order.captureOutcome === "instrument-declined") {
      return unprocessable(
        "INSTRUMENT_DECLINED",
        "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }
    const now = new Date().toISOString();
    const status = order.captureOutcome === "capture-declined" ? "DECLINED" : order.captureOutcome === "pending" ? "PENDING" : "COMPLETED";
    order.capture = {
      id: randomId(17),
      status,
      ...(status === "PENDING" ? { status_details: { reason: "PENDING_REVIEW" } } : {}),
      amount: {
        currency_code: order.purchaseUnit.amount.currency_code,
        value: state.capturedValueOverride ?? order.purchaseUnit.amount.value,
      },
      final_capture: true,
      seller_protection: { status: "ELIGIBLE", dispute_categories: ["ITEM_NOT_RECEIVED", "UNAUTHORIZED_TRANSACTION"] },
      ...(typeof order.purchaseUnit.custom_id === "string" ? { custom_id: order.purchaseUnit.custom_id } : {}),
      create_time: now,
      update_time: now,
    };
    order.status = "COMPLETED";
    return { status: 201, body: orderBody(order, origin) };
  }

  function approvalPage(orderId: string): FakeResponse {
    const order = state.orders.get(orderId);
    if (!order) return { status: 404, body: "<!doctype html><title>PayPal</title><p>This order does not exist.</p>", headers: HTML };
    const token = encodeURIComponent(order.id);
    const amount = `${order.purchaseUnit.amount.value} ${order.purchaseUnit.amount.currency_code}`;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>PayPal (local fake)</title></head><body>
<h1>PayPal checkout (local fake)</h1>
<p>Order <span data-testid="fake-paypal-order">${escapeHtml(order.id)}</span>: pay <strong data-testid="fake-paypal-amount">${escapeHtml(amount)}</strong></p>
<form method="post" action="/checkoutnow/approve?token=${token}"><button type="submit">Approve</button></form>
<form method="post" action="/checkoutnow/cancel?token=${token}"><button type="submit">Cancel</button></form>
</body></html>`;
    return { status: 200, body: html, headers: HTML };
  }

  function leaveApprovalPage(orderId: string, approve: boolean): FakeResponse {
    const order = state.orders.get(orderId);
    if (!order) return { status: 404, body: "<!doctype html><title>PayPal</title><p>This order does not exist.</p>", headers: HTML };
    const target = approve ? order.returnUrl : order.cancelUrl;
    if (!target) return { status: 400, body: "<!doctype html><title>PayPal</title><p>The order has no return address.</p>", headers: HTML };
    const next = new URL(target);
    next.searchParams.set("token", order.id);
    if (approve) next.searchParams.set("PayerID", approveOrder(order.id).payerId ?? "");
    return { status: 302, headers: { location: next.toString() } };
  }

  function sdkApprove(orderId: string): FakeResponse {
    if (!state.orders.has(orderId)) return { ...orderNotFound(orderId), headers: CORS };
    const order = approveOrder(orderId);
    return { status: 200, body: { orderID: order.id, payerID: order.payerId }, headers: CORS };
  }

  function sdkScript(url: URL, origin: string): FakeResponse {
    if (!state.sdkAvailable) return { status: 503, body: "Service Unavailable" };
    if (!url.searchParams.get("client-id")) {
      return { status: 400, body: "throw new Error(\"SDK Validation error: 'Expected client-id to be passed'\");", headers: JAVASCRIPT };
    }
    return { status: 200, body: fakeSdkSource(origin, url.searchParams), headers: JAVASCRIPT };
  }

  const server = await startFakeHttpServer(answer);
  const resetServer = server.reset.bind(server);
  const apiPrefixes = ["/v1/", "/v2/"];
  return Object.assign(server, {
    paypal: state,
    /** Forgets requests, orders, tokens and idempotency keys, and goes back to the default answers. */
    reset() {
      resetServer();
      state.orders.clear();
      state.tokens.clear();
      idempotent.clear();
      signedEvents.clear();
      refunds.clear();
      allRefunds.length = 0;
      Object.assign(state, { captureOutcome: "complete", capturedValueOverride: null, tokenLifetimeSeconds: 32_400, sdkAvailable: true });
    },
    answer,
    approveOrder,
    sendWebhook,
    refunds,
    refundsOf: (captureId: string) => allRefunds.filter((refund) => refund.captureId === captureId),
    apiRequests: () => server.requests.filter((request) => apiPrefixes.some((prefix) => request.path.startsWith(prefix))),
  });
}

/** An order as Orders v2 returns it. */
function orderBody(order: FakeOrder, origin: string) {
  const self = `${origin}/v2/checkout/orders/${order.id}`;
  const links: Array<{ href: string; rel: string; method: string }> = [{ href: self, rel: "self", method: "GET" }];
  if (order.status === "PAYER_ACTION_REQUIRED")
    links.push({ href: `${origin}/checkoutnow?token=${order.id}`, rel: "payer-action", method: "GET" });
  if (order.status === "CREATED") {
    links.push({ href: `${origin}/checkoutnow?token=${order.id}`, rel: "approve", method: "GET" });
    links.push({ href: self, rel: "update", method: "PATCH" });
  }
  if (order.status === "APPROVED" || order.status === "CREATED") links.push({ href: `${self}/capture`, rel: "capture", method: "POST" });
  const payer = order.payerId
    ? {
        payment_source: {
          paypal: { email_address: "buyer@example.com", account_id: order.payerId, name: { given_name: "Fake", surname: "Buyer" } },
        },
        payer: { name: { given_name: "Fake", surname: "Buyer" }, email_address: "buyer@example.com", payer_id: order.payerId },
      }
    : { payment_source: { paypal: {} } };
  return {
    id: order.id,
    intent: order.intent,
    status: order.status,
    ...payer,
    purchase_units: [
      {
        ...order.purchaseUnit,
        payee: { email_address: "merchant@example.com", merchant_id: "FAKEMERCHANT1" },
        ...(order.capture ? { payments: { captures: [order.capture] } } : {}),
      },
    ],
    create_time: order.createTime,
    links,
  };
}

/** PayPal's error body. */
export function paypalError(
  status: number,
  name: string,
  message: string,
  issue?: string,
  description?: string,
  field?: string,
): FakeResponse {
  return {
    status,
    body: {
      name,
      message,
      debug_id: debugId(),
      ...(issue ? { details: [{ ...(field ? { field, location: "body" } : {}), issue, ...(description ? { description } : {}) }] } : {}),
      links: [
        { href: `https://developer.paypal.com/api/rest/reference/orders/v2/errors/#${name}`, rel: "information_link", method: "GET" },
      ],
    },
  };
}

export function unprocessable(issue: string, description: string, field?: string): FakeResponse {
  return paypalError(
    422,
    "UNPROCESSABLE_ENTITY",
    "The requested action could not be performed, semantically incorrect, or failed business validation.",
    issue,
    description,
    field,
  );
}

const MONEY_VALUE = /^\d{1,10}(\.\d{2})?$/;
const DECIMAL_PRECISION = "If the currency supports decimals, only two decimal place precision is supported.";
/** The parts of amount.breakdown PayPal adds to reach the value, and those it subtracts. */
const ADDED_PARTS = ["item_total", "tax_total", "shipping", "handling", "insurance"];
const SUBTRACTED_PARTS = ["shipping_discount", "discount"];
const ITEM_CATEGORIES = ["DIGITAL_GOODS", "PHYSICAL_GOODS", "DONATION"];

/** Cents of a money object ({ currency_code, value }), or null when it is not one. */
function moneyCents(money: unknown): number | null {
  if (!isRecord(money) || typeof money.currency_code !== "string" || typeof money.value !== "string" || !MONEY_VALUE.test(money.value)) {
    return null;
  }
  return Math.round(Number(money.value) * 100);
}

/**
 * What PayPal checks of a purchase unit's breakdown and items (https://developer.paypal.com/api/rest/reference/orders/v2/errors/):
 * each is money and each item is well formed (400), items need an item_total (ITEM_TOTAL_REQUIRED) that they add up to
 * (ITEM_TOTAL_MISMATCH), and the value is the breakdown's sum (AMOUNT_MISMATCH).
 */
function itemisationRefusal(unit: Record<string, unknown>, amount: Record<string, unknown>): FakeResponse | null {
  const at = `/purchase_units/@reference_id=='${String(unit.reference_id ?? "default")}'`;
  const breakdown = isRecord(amount.breakdown) ? amount.breakdown : null;
  const parts = [...ADDED_PARTS, ...SUBTRACTED_PARTS].filter((name) => breakdown?.[name] !== undefined);
  const malformed = parts.find((name) => moneyCents(breakdown?.[name]) === null);
  if (malformed) return invalid(`${at}/amount/breakdown/${malformed}/value`, "DECIMAL_PRECISION", DECIMAL_PRECISION);
  const items = unit.items === undefined ? [] : unit.items;
  if (!Array.isArray(items))
    return invalid(`${at}/items`, "INVALID_PARAMETER_SYNTAX", "The value of a field does not conform to the expected format.");
  let itemsCents = 0;
  for (const [index, item] of items.entries()) {
    const line = itemLineCents(item, `${at}/items/${index}`);
    if (typeof line !== "number") return line;
    itemsCents += line;
  }
  const itemTotal = moneyCents(breakdown?.item_total);
  if (items.length > 0 && itemTotal === null) {
    return unprocessable(
      "ITEM_TOTAL_REQUIRED",
      "If item details are specified (items.unit_amount and items.quantity) corresponding amount.breakdown.item_total is required.",
      `${at}/amount/breakdown/item_total`,
    );
  }
  if (items.length > 0 && itemTotal !== itemsCents) {
    return unprocessable(
      "ITEM_TOTAL_MISMATCH",
      "Should equal sum of (unit_amount * quantity) across all items for a given purchase_unit.",
      `${at}/amount/breakdown/item_total/value`,
    );
  }
  const sign = (name: string) => (SUBTRACTED_PARTS.includes(name) ? -1 : 1);
  const sum = parts.reduce((total, name) => total + sign(name) * moneyCents(breakdown?.[name])!, 0);
  if (parts.length > 0 && sum !== moneyCents(amount)) {
    return unprocessable(
      "AMOUNT_MISMATCH",
      "Should equal item_total + tax_total + shipping + handling + insurance - shipping_discount - discount.",
      `${at}/amount/value`,
    );
  }
  return null;
}

/** An item's unit_amount × quantity in cents, or PayPal's refusal of a malformed item. */
function itemLineCents(item: unknown, at: string): number | FakeResponse {
  if (!isRecord(item)) return invalid(at, "INVALID_PARAMETER_SYNTAX", "The value of a field does not conform to the expected format.");
  for (const field of ["name", "quantity", "unit_amount"]) {
    if (item[field] === undefined)
      return invalid(`${at}/${field}`, "MISSING_REQUIRED_PARAMETER", "A required field / parameter is missing.");
  }
  for (const field of ["name", "sku"]) {
    const text = item[field];
    if (text !== undefined && (typeof text !== "string" || text.length === 0 || text.length > 127)) {
      return invalid(`${at}/${field}`, "INVALID_STRING_LENGTH", "The value of a field is either too short or too long.");
    }
  }
  if (typeof item.quantity !== "string" || !/^[1-9]\d{0,9}$/.test(item.quantity)) {
    return invalid(`${at}/quantity`, "INVALID_PARAMETER_SYNTAX", "The value of a field does not conform to the expected format.");
  }
  const unitCents = moneyCents(item.unit_amount);
  if (unitCents === null) return invalid(`${at}/unit_amount/value`, "DECIMAL_PRECISION", DECIMAL_PRECISION);
  if (item.category !== undefined && !ITEM_CATEGORIES.includes(String(item.category))) {
    return invalid(`${at}/category`, "INVALID_PARAMETER_VALUE", "The value of a field is invalid.");
  }
  return unitCents * Number(item.quantity);
}

function invalid(field: string, issue: string, description: string): FakeResponse {
  return paypalError(
    400,
    "INVALID_REQUEST",
    "Request is not well-formed, syntactically incorrect, or violates schema.",
    issue,
    description,
    field,
  );
}

function orderNotFound(orderId: string): FakeResponse {
  const response = paypalError(
    404,
    "RESOURCE_NOT_FOUND",
    "The specified resource does not exist.",
    "INVALID_RESOURCE_ID",
    "Specified resource ID does not exist. Please check the resource ID and try again.",
  );
  const body = response.body as { details: Array<Record<string, unknown>> };
  body.details[0] = { field: "order_id", value: orderId, location: "path", ...body.details[0] };
  return response;
}

/** The browser side: `window.paypal.Buttons(options).render(container)` draws one button that pays through this fake. */
function fakeSdkSource(origin: string, query: URLSearchParams): string {
  const settings = JSON.stringify({
    origin,
    currency: query.get("currency"),
    intent: query.get("intent"),
    clientId: query.get("client-id"),
  });
  return `(function () {
  "use strict";
  var settings = ${settings};
  function Buttons(options) {
    options = options || {};
    var container = null;
    var actions = {
      enable: function () { return Promise.resolve(); },
      disable: function () { return Promise.resolve(); },
      restart: function () { return Promise.resolve(); }
    };
    function fail(error) {
      if (typeof options.onError === "function") options.onError(error instanceof Error ? error : new Error(String(error)));
    }
    function pay(button) {
      button.disabled = true;
      Promise.resolve()
        .then(function () { return options.createOrder({ paymentSource: "paypal" }, actions); })
        .then(function (orderId) {
          return fetch(settings.origin + "/fake-sdk/approve?token=" + encodeURIComponent(orderId), { method: "POST", headers: { accept: "application/json" } })
            .then(function (response) {
              if (!response.ok) throw new Error("PayPal could not approve order " + orderId);
              return response.json();
            });
        })
        .then(function (approval) {
          return options.onApprove({ orderID: approval.orderID, payerID: approval.payerID, paymentSource: "paypal" }, actions);
        })
        .catch(fail)
        .then(function () { button.disabled = false; });
    }
    return {
      isEligible: function () { return true; },
      render: function (target) {
        container = typeof target === "string" ? document.querySelector(target) : target;
        if (!container) return Promise.reject(new Error("Document is ready and element " + target + " does not exist"));
        var style = options.style || {};
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = "Pay with PayPal";
        button.className = "fake-paypal-button";
        button.setAttribute("data-style", JSON.stringify(style));
        button.setAttribute("data-sdk", JSON.stringify(settings));
        button.style.height = (style.height || 45) + "px";
        button.style.width = "100%";
        button.addEventListener("click", function () { pay(button); });
        container.appendChild(button);
        if (typeof options.onInit === "function") options.onInit({}, actions);
        return Promise.resolve();
      },
      close: function () {
        if (container) container.innerHTML = "";
        return Promise.resolve();
      },
      updateProps: function () { return Promise.resolve(); }
    };
  }
  window.paypal = { version: "5.0.0-fake", Buttons: Buttons, FUNDING: { PAYPAL: "paypal" } };
})();
`;
}

const HTML = { "content-type": "text/html; charset=utf-8" };
const JAVASCRIPT = { "content-type": "application/javascript; charset=utf-8" };
const CORS = { "access-control-allow-origin": "*" };

function randomId(length: number): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join("");
}

function debugId(): string {
  return randomBytes(7).toString("hex").slice(0, 13);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
