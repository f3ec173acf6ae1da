import type { Fetcher } from "./http2-fetch";

/**
 * A shopper scripted over plain HTTP, as a browser without script would do it:
 * a cookie jar, form posts and redirects followed by hand. Used by the load,
 * fault and several-servers tests, so they need no browser.
 */

export const PRODUCT_KEYS = ["blaze-3159840", "blaze-3159837", "primo-2141317", "custom_product-LOVE-RUB-001"] as const;

export const BROWSE_PATHS = [
  "/",
  "/products/all/all",
  "/product/blaze-3159840",
  "/product/primo-2141317",
  "/finding/grill",
  "/custom-product",
  "/cart",
  "/contact",
] as const;

export const CUSTOMER = {
  firstName: "Grace",
  lastName: "Hopper",
  phone: "5125550100",
  address: "200 Congress Ave",
  city: "Austin",
  state: "TX",
  postalCode: "78701",
};

export interface Exchange {
  /** This request's `X-Test-Request` header: how a proxy's log names it. */
  id: string;
  method: string;
  path: string;
  status: number;
  location: string | null;
  body: string;
  headers: Headers;
  /** From sending the request to the end of the body. */
  ms: number;
}

/** Something went wrong below HTTP: the connection was reset or closed without an answer. */
export class DroppedConnection extends Error {
  constructor(
    message: string,
    /** The lost request's `X-Test-Request` header. */
    readonly requestId: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

let requestsSent = 0;

/** Plain fetch: HTTP/1.1 straight to a store process. */
const plainFetch: Fetcher = (url, init) => fetch(url, { ...init, redirect: "manual" });

export class Shopper {
  private readonly cookies = new Map<string, string>();
  /** Every answer this shopper got, for the test's tallies. */
  readonly onExchange: ((exchange: Exchange) => void) | undefined;
  /** How requests go out: fetch, or the HTTP/2 connection of a browser behind a proxy (http2-fetch.ts). */
  private readonly send: Fetcher;

  constructor(
    readonly baseUrl: string,
    onExchange?: (exchange: Exchange) => void,
    send: Fetcher = plainFetch,
  ) {
    this.onExchange = onExchange;
    this.send = send;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Another shopper (another browser) that holds a copy of this one's cookies; elsewhere (a store process itself), over plain fetch. */
  copy(baseUrl = this.baseUrl): Shopper {
    const copy = new Shopper(baseUrl, this.onExchange, baseUrl === this.baseUrl ? this.send : plainFetch);
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    return copy;
  }

  async get(path: string): Promise<Exchange> {
    return this.request("GET", path);
  }

  async post(path: string, fields: Record<string, string>): Promise<Exchange> {
    return this.request("POST", path, new URLSearchParams(fields));
  }

  /** Follows redirects (GET) from an answer, as a browser would, up to the final page. */
  async follow(exchange: Exchange, limit = 5): Promise<Exchange> {
    let current = exchange;
    for (let hops = 0; current.location && current.status >= 300 && current.status < 400; hops++) {
      if (hops >= limit) throw new Error(`too many redirects from ${exchange.path}`);
      current = await this.get(current.location);
    }
    return current;
  }

  async request(method: string, path: string, body?: URLSearchParams): Promise<Exchange> {
    const url = new URL(path, this.baseUrl);
    const id = String(++requestsSent);
    const headers: Record<string, string> = { Accept: "text/html", "User-Agent": "resilience-test", "X-Test-Request": id };
    const cookie = this.cookieHeader();
    if (cookie) headers.Cookie = cookie;
    if (body) headers["Content-Type"] = "application/x-www-form-urlencoded";
    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await this.send(url, { method, headers, body, signal: AbortSignal.timeout(60_000) });
      text = await response.text();
    } catch (error) {
      throw new DroppedConnection(`${method} ${url.pathname}: ${describe(error)}`, id, { cause: error });
    }
    for (const setCookie of response.headers.getSetCookie()) this.store(setCookie);
    const location = response.headers.get("location");
    const exchange: Exchange = {
      id,
      method,
      path: url.pathname + url.search,
      status: response.status,
      location: location ? new URL(location, url).pathname + new URL(location, url).search : null,
      body: text,
      headers: response.headers,
      ms: performance.now() - started,
    };
    this.onExchange?.(exchange);
    return exchange;
  }

  private store(setCookie: string) {
    const [pair, ...attributes] = setCookie.split(";");
    const index = pair.indexOf("=");
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute) || /expires=thu, 01 jan 1970/i.test(attribute));
    if (expired || value === "") this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause =
    error.cause instanceof Error ? `: ${error.cause.message}${"code" in error.cause ? ` (${String(error.cause.code)})` : ""}` : "";
  return `${error.message}${cause}`;
}

export interface Purchase {
  email: string;
  /** The checkout token (one order at most per checkout). */
  checkoutToken: string;
  /** The test payment's id, tp_... */
  paymentId: string;
  /** The page the test payment page sends the shopper back to (confirms the payment; can be visited again). */
  returnPath: string;
}

/** Adds a product to the cart, fills the checkout form and starts paying with the test page: everything up to Approve. */
export async function startPurchase(
  shopper: Shopper,
  email: string,
  productKey: string = PRODUCT_KEYS[0],
): Promise<Omit<Purchase, "returnPath">> {
  const added = await shopper.post("/cart", { intent: "add", productKey, quantity: "1", redirectTo: "/cart", mode: "document" });
  expectStatus(added, [303, 302]);
  const details = await shopper.post("/checkout", { ...CUSTOMER, email });
  expectStatus(details, [302, 303]);
  const checkoutToken = new URL(details.location ?? "", "http://x").searchParams.get("checkout");
  if (!checkoutToken) throw new Error(`checkout did not redirect to the payment step: ${details.status} ${details.location}`);
  const paymentPage = await shopper.get(details.location ?? "");
  expectStatus(paymentPage, [200]);
  const started = await shopper.post("/payments/start", { checkout: checkoutToken, method: "stripe" });
  expectStatus(started, [302, 303]);
  const paymentId = /^\/test-payment\/([^/?]+)/.exec(started.location ?? "")?.[1];
  if (!paymentId) throw new Error(`payment did not open the test page: ${started.location}`);
  expectStatus(await shopper.get(`/test-payment/${paymentId}`), [200]);
  return { email, checkoutToken, paymentId };
}

/** Presses Approve on the test payment page; answers the return path the page sends the shopper to. */
export async function approve(shopper: Shopper, paymentId: string): Promise<string> {
  const decided = await shopper.post(`/test-payment/${paymentId}`, { decision: "approved" });
  expectStatus(decided, [302, 303]);
  if (!decided.location) throw new Error("approval did not redirect");
  return decided.location;
}

/** Visits the return page (following the purchase-reset redirect) and reads the order id from the thank-you page. */
export async function confirm(shopper: Shopper, returnPath: string): Promise<{ exchange: Exchange; orderId: string | null }> {
  const exchange = await shopper.follow(await shopper.get(returnPath));
  const orderId = /data-testid="order-id">([^<]+)</.exec(exchange.body)?.[1]?.trim() ?? null;
  return { exchange, orderId };
}

/** A whole purchase, end to end. */
export async function buy(shopper: Shopper, email: string, productKey?: string): Promise<Purchase & { orderId: string }> {
  const started = await startPurchase(shopper, email, productKey);
  const returnPath = await approve(shopper, started.paymentId);
  const { exchange, orderId } = await confirm(shopper, returnPath);
  if (!orderId) throw new Error(`no order id on the thank-you page (${exchange.status} ${exchange.path})`);
  return { ...started, returnPath, orderId };
}

export function expectStatus(exchange: Exchange, statuses: number[]) {
  if (!statuses.includes(exchange.status)) {
    throw new Error(
      `${exchange.method} ${exchange.path}: expected ${statuses.join(" or ")}, got ${exchange.status} ${exchange.body.slice(0, 300)}`,
    );
  }
}

/** A staff member signed in through the real /login form (CSRF token from the page). */
export async function signInStaff(shopper: Shopper, email: string, password: string): Promise<void> {
  const page = await shopper.get("/login");
  expectStatus(page, [200]);
  const csrf = csrfOf(page.body);
  const answer = await shopper.post("/login", { csrf, email, password, redirectTo: "/dashboard" });
  if (answer.status !== 303) throw new Error(`sign-in failed: ${answer.status} ${answer.body.slice(0, 200)}`);
}

export function csrfOf(html: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error("no CSRF token in the page");
  return token;
}
