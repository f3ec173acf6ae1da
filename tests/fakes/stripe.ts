import { createHmac, randomBytes } from "node:crypto";
import { bearerToken, startFakeHttpServer, type FakeResponse, type FakeServer, type RecordedRequest } from "./fake-http-server";

export type { FakeServer, RecordedRequest } from "./fake-http-server";

/** The test card that Stripe declines (https://docs.stripe.com/testing#declined-payments). */
export const DECLINED_CARD = "4000000000000002";
export const DECLINE_MESSAGE = "Your card was declined.";

export interface FakePaymentIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  description: string | null;
  receipt_email: string | null;
  metadata: Record<string, string>;
  last_payment_error: { type: string; code: string; message: string } | null;
  created: number;
  livemode: false;
}

export interface FakeCheckoutSession {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  amount_total: number;
  currency: string;
  url: string | null;
  success_url: string;
  cancel_url: string | null;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  line_items: unknown;
  payment_intent_data: Record<string, unknown>;
  created: number;
  livemode: false;
}

export interface WebhookDelivery {
  type: string;
  payload: string;
  status: number | "failed";
}

export interface FakeStripe extends FakeServer {
  /** The fake's own Stripe-like answers, to go back to after `respondWith` without forgetting objects. */
  readonly answerLikeStripe: (request: RecordedRequest) => Promise<FakeResponse>;
  readonly paymentIntents: Map<string, FakePaymentIntent>;
  readonly checkoutSessions: Map<string, FakeCheckoutSession>;
  /** Refunds made with POST /v1/refunds, by PaymentIntent id: its first refund (see `refundsOf` for every one). */
  readonly refunds: Map<string, { id: string; amount: number; payment_intent: string; status: string }>;
  /** Every refund of a PaymentIntent, in order (partial refunds make several). */
  refundsOf(intentId: string): { id: string; amount: number; payment_intent: string; status: string }[];
  /** URL of the fake Stripe.js (pass as STRIPE_JS_URL). */
  readonly scriptUrl: string;
  /** What the shopper's card does at Stripe, as Stripe.js confirming the intent would. */
  succeedPaymentIntent(id: string): FakePaymentIntent;
  declinePaymentIntent(id: string, message?: string): FakePaymentIntent;
  /** The hosted page's Pay button. */
  completeCheckoutSession(id: string): FakeCheckoutSession;
  /** From now on, Stripe sends events to this endpoint, signed with this secret. */
  deliverWebhooksTo(url: string, secret: string): void;
  /** Every event sent so far, in order. */
  readonly webhookDeliveries: WebhookDelivery[];
  /** Waits for webhook deliveries in flight. */
  flushWebhooks(): Promise<void>;
  /** A signed delivery of an event about this object, as Stripe would post it (for replays and tests). */
  signedEvent(type: string, object: object, secret: string, timestamp?: number): { payload: string; signature: string };
}

/** A PaymentIntent the shopper has paid, as a test seeds it in `paymentIntents` for an order paid before the test. */
export function succeededIntent({ id, amount, attemptId }: { id: string; amount: number; attemptId: string }): FakePaymentIntent {
  return {
    id,
    object: "payment_intent",
    amount,
    amount_received: amount,
    currency: "usd",
    status: "succeeded",
    client_secret: `${id}_secret_x`,
    description: null,
    receipt_email: null,
    metadata: { attempt_id: attemptId },
    last_payment_error: null,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
  };
}

/**
 * A local stand-in for Stripe's API (https://docs.stripe.com/api), enough for
 * the store: PaymentIntents (create, retrieve, confirm from the browser with
 * the publishable key), Checkout Sessions (create, retrieve) with a hosted
 * page that has Pay and Decline, signed webhook events
 * (`Stripe-Signature: t=...,v1=HMAC-SHA256(secret, "t.payload")`), and a
 * minimal Stripe.js at `/v3/stripe.js` exposing the same `Stripe()` global
 * (elements, the payment element, confirmPayment). Idempotency keys replay
 * the first answer, as Stripe does. Point the SDK at it with
 * `{ host: "127.0.0.1", port, protocol: "http" }`.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const paymentIntents = new Map<string, FakePaymentIntent>();
  const checkoutSessions = new Map<string, FakeCheckoutSession>();
  const refunds = new Map<string, { id: string; amount: number; payment_intent: string; status: string }>();
  const idempotentAnswers = new Map<string, { path: string; rawBody: string; response: FakeResponse }>();
  const webhookDeliveries: WebhookDelivery[] = [];
  const inFlight = new Set<Promise<void>>();
  let webhookTarget: { url: string; secret: string } | null = null;
  let baseUrl = "";

  function sendEvent(type: string, object: object) {
    if (!webhookTarget) return;
    const { url, secret } = webhookTarget;
    const { payload, signature } = signedEvent(type, object, secret);
    const delivery: WebhookDelivery = { type, payload, status: "failed" };
    webhookDeliveries.push(delivery);
    const sending = fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    })
      .then((response) => {
        delivery.status = response.status;
      })
      .catch(() => undefined)
      .finally(() => inFlight.delete(sending));
    inFlight.add(sending);
  }

  function succeedPaymentIntent(id: string): FakePaymentIntent {
    const intent = mustGet(paymentIntents, id);
    if (intent.status !== "succeeded") {
      Object.assign(intent, { status: "succeeded", amount_received: intent.amount, last_payment_error: null });
      sendEvent("payment_intent.succeeded", intent);
    }
    return intent;
  }

  function declinePaymentIntent(id: string, message = DECLINE_MESSAGE): FakePaymentIntent {
    const intent = mustGet(paymentIntents, id);
    const error = { type: "card_error", code: "card_declined", message };
    Object.assign(intent, { status: "requires_payment_method", last_payment_error: error });
    sendEvent("payment_intent.payment_failed", intent);
    return intent;
  }

  function completeCheckoutSession(id: string): FakeCheckoutSession {
    const session = mustGet(checkoutSessions, id);
    if (session.status !== "open") return session;
    const metadata = isStringRecord(session.payment_intent_data.metadata) ? session.payment_intent_data.metadata : {};
    const intent = newPaymentIntent({ amount: session.amount_total, currency: session.currency, metadata });
    paymentIntents.set(intent.id, intent);
    Object.assign(session, { status: "complete", payment_status: "paid", payment_intent: intent.id });
    succeedPaymentIntent(intent.id);
    sendEvent("checkout.session.completed", session);
    return session;
  }

  /** Stripe's expire (API reference, Checkout Sessions, "Expire a Session"): only an open session can be expired; it can never be paid after. */
  function expireCheckoutSession(id: string): FakeResponse {
    const session = checkoutSessions.get(id);
    if (!session) return stripeError(404, "invalid_request_error", `No such checkout.session: '${id}'`, { code: "resource_missing" });
    if (session.status !== "open") {
      return stripeError(400, "invalid_request_error", `Only Checkout Sessions with a status in ["open"] can be expired.`);
    }
    session.status = "expired";
    return { status: 200, body: session };
  }

  /** Stripe's cancel (API reference, Payment Intents, "Cancel a PaymentIntent"): a succeeded or already canceled one cannot be. */
  function cancelPaymentIntent(id: string): FakeResponse {
    const intent = paymentIntents.get(id);
    if (!intent) return stripeError(404, "invalid_request_error", `No such payment_intent: '${id}'`, { code: "resource_missing" });
    if (intent.status === "succeeded" || intent.status === "canceled") {
      return stripeError(400, "invalid_request_error", `This PaymentIntent's status is ${intent.status}; it cannot be canceled.`, {
        code: "payment_intent_unexpected_state",
      });
    }
    Object.assign(intent, { status: "canceled" });
    return { status: 200, body: intent };
  }

  const allRefunds: { id: string; amount: number; payment_intent: string; status: string }[] = [];
  const refundedOf = (intentId: string) =>
    allRefunds.filter((refund) => refund.payment_intent === intentId).reduce((sum, refund) => sum + refund.amount, 0);

  /**
   * A refund of a succeeded PaymentIntent (Stripe's `POST /v1/refunds`): `amount` refunds that much,
   * none the rest; refused once it is refunded in full, or for more than is left, as Stripe does
   * (https://docs.stripe.com/api/refunds/create: `amount` defaults to the entire charge, at most what is left).
   */
  function createRefund(params: FormValue): FakeResponse {
    const intentId = isRecord(params) && typeof params.payment_intent === "string" ? params.payment_intent : "";
    const intent = paymentIntents.get(intentId);
    if (!intent) return stripeError(404, "invalid_request_error", `No such payment_intent: '${intentId}'`, { code: "resource_missing" });
    const left = intent.amount - refundedOf(intent.id);
    if (left <= 0) {
      return stripeError(400, "invalid_request_error", `Charge for ${intent.id} has already been refunded.`, {
        code: "charge_already_refunded",
      });
    }
    if (intent.status !== "succeeded") {
      return stripeError(400, "invalid_request_error", "This PaymentIntent does not have a successful charge to refund.");
    }
    const asked = isRecord(params) && params.amount !== undefined ? Number(params.amount) : left;
    if (!Number.isInteger(asked) || asked <= 0)
      return stripeError(400, "invalid_request_error", "Invalid integer: amount", { param: "amount" });
    if (asked > left) {
      return stripeError(
        400,
        "invalid_request_error",
        `Refund amount ($${asked / 100}) is greater than unrefunded amount on charge ($${left / 100})`,
        {
          param: "amount",
        },
      );
    }
    const refund = {
      id: `re_${randomId()}`,
      object: "refund",
      amount: asked,
      currency: intent.currency,
      payment_intent: intent.id,
      status: "succeeded",
    };
    if (!refunds.has(intent.id)) refunds.set(intent.id, refund);
    allRefunds.push(refund);
    return { status: 200, body: refund };
  }

  async function answer(request: RecordedRequest): Promise<FakeResponse> {
    const url = new URL(request.path, "http://fake");
    const path = url.pathname;
    if (request.method === "OPTIONS") return { status: 204, headers: CORS };
    if (request.method === "GET" && path === "/v3/stripe.js") {
      return { status: 200, body: STRIPE_JS, headers: { "content-type": "application/javascript; charset=utf-8" } };
    }
    const hostedPage = /^\/c\/pay\/(cs_[A-Za-z0-9_]+)(?:\/(pay|decline))?$/.exec(path);
    if (hostedPage) return answerHostedPage(request, hostedPage[1]!, hostedPage[2]);
    const browserConfirm = /^\/v1\/payment_intents\/(pi_[A-Za-z0-9_]+)\/confirm$/.exec(path);
    if (browserConfirm && request.method === "POST") return confirmFromBrowser(browserConfirm[1]!, parseForm(request.rawBody));

    const key = bearerToken(request.headers);
    if (!key?.startsWith("sk_")) {
      return stripeError(401, "invalid_request_error", "Invalid API Key provided.", { code: "api_key_invalid" });
    }
    const idempotencyKey = typeof request.headers["idempotency-key"] === "string" ? request.headers["idempotency-key"] : null;
    if (request.method === "POST" && idempotencyKey) {
      const previous = idempotentAnswers.get(idempotencyKey);
      if (previous && (previous.path !== path || previous.rawBody !== request.rawBody)) {
        return stripeError(
          400,
          "idempotency_error",
          "Keys for idempotent requests can only be used with the same parameters they were first used with.",
        );
      }
      if (previous) return { ...previous.response, headers: { ...previous.response.headers, "idempotent-replayed": "true" } };
      const first = answerApi(request.method, path, parseForm(request.rawBody));
      if (first.status < 500) idempotentAnswers.set(idempotencyKey, { path, rawBody: request.rawBody, response: first });
      return first;
    }
    return answerApi(request.method, path, parseForm(request.rawBody));
  }

  function answerApi(method: string, path: string, params: FormValue): FakeResponse {
    if (method === "POST" && path === "/v1/payment_intents") return createPaymentIntent(params);
    if (method === "POST" && path === "/v1/checkout/sessions") return createCheckoutSession(params);
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === "GET" && intent) return found(paymentIntents.get(intent[1]!), "payment_intent", intent[1]!);
    const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && session) return found(checkoutSessions.get(session[1]!), "checkout.session", session[1]!);
    if (method === "POST" && path === "/v1/refunds") return createRefund(params);
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (method === "POST" && expire) return expireCheckoutSession(expire[1]!);
    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
    if (method === "POST" && cancel) return cancelPaymentIntent(cancel[1]!);
    return stripeError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`);
  }

  function createPaymentIntent(params: FormValue): FakeResponse {
    if (!isRecord(params)) return stripeError(400, "invalid_request_error", "Invalid request body.");
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 50) {
      return stripeError(400, "invalid_request_error", "Amount must be at least $0.50 usd", { param: "amount", code: "amount_too_small" });
    }
    if (typeof params.currency !== "string" || params.currency === "") {
      return stripeError(400, "invalid_request_error", "Missing required param: currency.", {
        param: "currency",
        code: "parameter_missing",
      });
    }
    const intent = newPaymentIntent({
      amount,
      currency: params.currency,
      metadata: isStringRecord(params.metadata) ? params.metadata : {},
      description: typeof params.description === "string" ? params.description : null,
      receipt_email: typeof params.receipt_email === "string" ? params.receipt_email : null,
    });
    paymentIntents.set(intent.id, intent);
    return { status: 200, body: intent };
  }

  function createCheckoutSession(params: FormValue): FakeResponse {
    if (!isRecord(params)) return stripeError(400, "invalid_request_error", "Invalid request body.");
    if (params.mode !== "payment")
      return stripeError(400, "invalid_request_error", "This fake supports mode=payment only.", { param: "mode" });
    if (typeof params.success_url !== "string") {
      return stripeError(400, "invalid_request_error", "Missing required param: success_url.", { param: "success_url" });
    }
    const lines = isRecord(params.line_items) ? Object.values(params.line_items) : [];
    let amountTotal = 0;
    let currency = "";
    for (const line of lines) {
      const priceData = isRecord(line) && isRecord(line.price_data) ? line.price_data : null;
      const unitAmount = Number(priceData?.unit_amount);
      const quantity = Number(isRecord(line) ? line.quantity : NaN);
      if (!priceData || !Number.isInteger(unitAmount) || !Number.isInteger(quantity) || typeof priceData.currency !== "string") {
        return stripeError(400, "invalid_request_error", "Each line item needs price_data and quantity.", { param: "line_items" });
      }
      amountTotal += unitAmount * quantity;
      currency = priceData.currency;
    }
    if (lines.length === 0)
      return stripeError(400, "invalid_request_error", "Missing required param: line_items.", { param: "line_items" });
    const id = `cs_test_${randomId()}`;
    const session: FakeCheckoutSession = {
      id,
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      amount_total: amountTotal,
      currency,
      url: `${baseUrl}/c/pay/${id}`,
      success_url: params.success_url,
      cancel_url: typeof params.cancel_url === "string" ? params.cancel_url : null,
      client_reference_id: typeof params.client_reference_id === "string" ? params.client_reference_id : null,
      customer_email: typeof params.customer_email === "string" ? params.customer_email : null,
      metadata: isStringRecord(params.metadata) ? params.metadata : {},
      payment_intent: null,
      line_items: params.line_items,
      payment_intent_data: isRecord(params.payment_intent_data) ? params.payment_intent_data : {},
      created: now(),
      livemode: false,
    };
    checkoutSessions.set(id, session);
    return { status: 200, body: session };
  }

  /** What Stripe.js does for `confirmPayment`: the publishable key and the client secret authorize it. */
  function confirmFromBrowser(id: string, params: FormValue): FakeResponse {
    const intent = paymentIntents.get(id);
    const form = isRecord(params) ? params : {};
    if (typeof form.key !== "string" || !form.key.startsWith("pk_")) {
      return { ...stripeError(401, "invalid_request_error", "Invalid API Key provided."), headers: CORS };
    }
    if (!intent || form.client_secret !== intent.client_secret) {
      return {
        ...stripeError(404, "invalid_request_error", `No such payment_intent: '${id}'`, { code: "resource_missing" }),
        headers: CORS,
      };
    }
    const paymentMethod = isRecord(form.payment_method_data) ? form.payment_method_data : {};
    const card = isRecord(paymentMethod.card) ? paymentMethod.card : {};
    const number = typeof card.number === "string" ? card.number.replace(/\s+/g, "") : "";
    if (number === DECLINED_CARD) {
      declinePaymentIntent(id);
      return { ...stripeError(402, "card_error", DECLINE_MESSAGE, { code: "card_declined" }), headers: CORS };
    }
    return { status: 200, body: succeedPaymentIntent(id), headers: CORS };
  }

  function answerHostedPage(request: RecordedRequest, id: string, action: string | undefined): FakeResponse {
    const session = checkoutSessions.get(id);
    if (!session) return { status: 404, body: "Checkout Session not found.", headers: { "content-type": "text/plain" } };
    if (request.method === "POST" && action === "pay") {
      completeCheckoutSession(id);
      return { status: 303, body: "", headers: { location: session.success_url.replace("{CHECKOUT_SESSION_ID}", id) } };
    }
    const declined = request.method === "POST" && action === "decline";
    return {
      status: declined ? 402 : 200,
      body: hostedPageHtml(session, declined),
      headers: { "content-type": "text/html; charset=utf-8" },
    };
  }

  const server = await startFakeHttpServer(answer);
  baseUrl = server.url;
  const resetServer = server.reset.bind(server);
  return Object.assign(server, {
    /** Default answers again, and no requests, objects, idempotency keys or webhook deliveries remembered. */
    reset() {
      resetServer();
      paymentIntents.clear();
      checkoutSessions.clear();
      refunds.clear();
      allRefunds.length = 0;
      idempotentAnswers.clear();
      webhookDeliveries.length = 0;
    },
    answerLikeStripe: answer,
    paymentIntents,
    checkoutSessions,
    refunds,
    refundsOf: (intentId: string) => allRefunds.filter((refund) => refund.payment_intent === intentId),
    scriptUrl: `${server.url}/v3/stripe.js`,
    succeedPaymentIntent,
    declinePaymentIntent,
    completeCheckoutSession,
    deliverWebhooksTo(url: string, secret: string) {
      webhookTarget = { url, secret };
    },
    webhookDeliveries,
    async flushWebhooks() {
      await Promise.all([...inFlight]);
    },
    signedEvent,
  });
}

/** Signs an event the way Stripe does: `t=TIMESTAMP,v1=HMAC-SHA256(secret, "TIMESTAMP.PAYLOAD")`. */
export function signedEvent(type: string, object: object, secret: string, timestamp = now()): { payload: string; signature: string } {
  const event = {
    id: `evt_${randomId()}`,
    object: "event",
    api_version: "2025-01-27.acacia",
    created: timestamp,
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
  const payload = JSON.stringify(event, null, 2);
  return { payload, signature: stripeSignature(payload, secret, timestamp) };
}

export function stripeSignature(payload: string, secret: string, timestamp = now()): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/** Stripe's error body: `{ error: { type, message, code?, param? } }`. */
export function stripeError(
  status: number,
  type: string,
  message: string,
  extra: { code?: string; param?: string } = {},
): FakeResponse & { headers: Record<string, string> } {
  return { status, body: { error: { type, message, ...extra } }, headers: { "request-id": `req_${randomId()}` } };
}

function newPaymentIntent(values: {
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  description?: string | null;
  receipt_email?: string | null;
}): FakePaymentIntent {
  const id = `pi_${randomId()}`;
  return {
    id,
    object: "payment_intent",
    amount: values.amount,
    amount_received: 0,
    currency: values.currency,
    status: "requires_payment_method",
    client_secret: `${id}_secret_${randomId()}`,
    description: values.description ?? null,
    receipt_email: values.receipt_email ?? null,
    metadata: values.metadata,
    last_payment_error: null,
    created: now(),
    livemode: false,
  };
}

function found(object: object | undefined, kind: string, id: string): FakeResponse {
  return object
    ? { status: 200, body: object }
    : stripeError(404, "invalid_request_error", `No such ${kind}: '${id}'`, { code: "resource_missing", param: "id" });
}

function mustGet<T>(map: Map<string, T>, id: string): T {
  const value = map.get(id);
  if (!value) throw new Error(`fake Stripe has no ${id}`);
  return value;
}

type FormValue = string | { [key: string]: FormValue };

/** Decodes Stripe's form encoding (`metadata[a]=1&line_items[0][quantity]=1`) into nested records. */
export function parseForm(rawBody: string): FormValue {
  const root: Record<string, FormValue> = {};
  for (const [name, value] of new URLSearchParams(rawBody)) {
    const keys = name.replace(/\]/g, "").split("[");
    let node = root;
    keys.forEach((key, index) => {
      if (index === keys.length - 1) {
        node[key] = value;
        return;
      }
      const next = node[key];
      node = (isRecord(next) ? next : (node[key] = {})) as Record<string, FormValue>;
    });
  }
  return root;
}

function isRecord(value: unknown): value is Record<string, FormValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((entry) => typeof entry === "string");
}

function randomId(): string {
  return randomBytes(12).toString("hex");
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

const CORS = { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function hostedPageHtml(session: FakeCheckoutSession, declined: boolean): string {
  const amount = `$${(session.amount_total / 100).toFixed(2)}`;
  const back = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Back to the store</a></p>` : "";
  const state =
    session.status === "open"
      ? `<form method="post" action="/c/pay/${session.id}/pay"><button type="submit">Pay ${amount}</button></form>
<form method="post" action="/c/pay/${session.id}/decline"><button type="submit">Decline</button></form>`
      : `<p>This Checkout Session is ${session.status}.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Stripe Checkout</title></head><body>
<h1>Fake Stripe Checkout</h1>
<p>Amount: <strong data-testid="stripe-amount">${amount} ${escapeHtml(session.currency.toUpperCase())}</strong></p>
${declined ? `<p role="alert">${DECLINE_MESSAGE}</p>` : ""}
${state}
${back}
</body></html>`;
}

/**
 * The fake Stripe.js: `Stripe(publishableKey)` with `elements({ clientSecret })`,
 * `elements.create("payment")` (a plain card-number field here, where the real one
 * is an iframe) and `confirmPayment({ elements, confirmParams: { return_url } })`,
 * which confirms the intent at the fake API and then redirects like Stripe.js, or
 * resolves `{ error }`. Plus the few members react-stripe-js checks for.
 */
const STRIPE_JS = String.raw`(function () {
  var api = new URL(document.currentScript.src).origin;
  function unsupported() { return Promise.reject(new Error("not supported by the fake Stripe.js")); }
  function paymentElement() {
    var listeners = {};
    var input = null;
    var element = {
      mount: function (target) {
        var node = typeof target === "string" ? document.querySelector(target) : target;
        var label = document.createElement("label");
        label.textContent = "Card number";
        input = document.createElement("input");
        input.name = "cardnumber";
        input.inputMode = "numeric";
        input.autocomplete = "cc-number";
        input.value = "4242 4242 4242 4242";
        label.appendChild(input);
        node.appendChild(label);
        setTimeout(function () { (listeners.ready || []).forEach(function (cb) { cb({ elementType: "payment" }); }); }, 0);
      },
      on: function (name, cb) { (listeners[name] = listeners[name] || []).push(cb); return element; },
      off: function (name, cb) { listeners[name] = (listeners[name] || []).filter(function (x) { return x !== cb; }); return element; },
      update: function () {},
      unmount: function () { if (input && input.parentNode) input.parentNode.remove(); },
      destroy: function () { element.unmount(); },
      focus: function () { if (input) input.focus(); },
      cardNumber: function () { return input ? input.value : ""; }
    };
    return element;
  }
  function Stripe(key) {
    return {
      _registerWrapper: function () {},
      registerAppInfo: function () {},
      createToken: unsupported,
      createPaymentMethod: unsupported,
      confirmCardPayment: unsupported,
      elements: function (options) {
        var created = null;
        return {
          clientSecret: options && options.clientSecret,
          create: function (type) {
            if (type !== "payment") throw new Error("the fake Stripe.js only has the payment element");
            created = paymentElement();
            return created;
          },
          getElement: function () { return created; },
          update: function () {},
          submit: function () { return Promise.resolve({}); }
        };
      },
      confirmPayment: function (params) {
        var elements = params.elements;
        var secret = elements.clientSecret;
        var id = secret.split("_secret_")[0];
        var card = elements.getElement();
        var body = new URLSearchParams({
          key: key,
          client_secret: secret,
          "payment_method_data[type]": "card",
          "payment_method_data[card][number]": card ? card.cardNumber() : "",
          return_url: params.confirmParams.return_url
        });
        return fetch(api + "/v1/payment_intents/" + id + "/confirm", { method: "POST", body: body })
          .then(function (response) { return response.json().then(function (json) { return { ok: response.ok, json: json }; }); })
          .then(function (answer) {
            if (!answer.ok) return { error: answer.json.error };
            var target = new URL(params.confirmParams.return_url);
            target.searchParams.set("payment_intent", id);
            target.searchParams.set("payment_intent_client_secret", secret);
            target.searchParams.set("redirect_status", "succeeded");
            window.location.assign(target.toString());
            return new Promise(function () {});
          }, function () {
            return { error: { type: "api_connection_error", message: "We could not reach Stripe." } };
          });
      }
    };
  }
  Stripe.version = 3;
  window.Stripe = Stripe;
})();
`;
