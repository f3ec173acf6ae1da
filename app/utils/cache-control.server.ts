/**
 * HTTP caching of documents. Catalogue pages (home, lists, product pages,
 * search results) declare CATALOGUE_CACHE_CONTROL in their route `headers`;
 * a shared cache (a CDN) may keep them a minute and serve them stale while it
 * fetches a fresh copy. Such a page is the same for every shopper only while
 * the request carries no cookie: the header shows the cart's count and the
 * page carries the cart for the browser's mirror. So a request with a cookie,
 * or a response that sets one, always gets `private, no-cache` instead, and
 * public pages say `Vary: Cookie` so no cache hands one to a shopper who has one.
 *
 * Pages that show one shopper's own data (the cart, the checkouts, an order,
 * a payment, the staff pages) are never kept anywhere, whatever their route
 * says: `private, no-store`, as a document and as its `.data` request.
 *
 * The HTTP server applies this once to every answer Remix gives (server/app.ts).
 */

export const CATALOGUE_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=600";

/** Route `headers` export of a catalogue page. */
export function catalogueHeaders() {
  return { "Cache-Control": CATALOGUE_CACHE_CONTROL };
}

export const PERSONAL_CACHE_CONTROL = "private, no-store";

/** The pages (and everything under them) that show a shopper's cart, checkout, order or payment, or the staff's view of orders. */
const PERSONAL_PAGES = [
  "/cart",
  "/checkout",
  "/custom-product-checkout",
  "/single-product-checkout",
  "/checkout-confirmation",
  "/checkout-authorized",
  "/order-status",
  "/test-payment",
  "/payments",
  "/chatbot",
  "/login",
  "/logout",
  "/dashboard",
  "/admin",
  "/dev/outbox",
  "/newsletter/confirm",
  "/newsletter/unsubscribe",
];
/** Financing cancelled: /checkout-canceled-{provider}. */
const PERSONAL_PAGE_PREFIXES = ["/checkout-canceled-"];

/** The page a request is for: a single-fetch data URL (`/cart.data`, `/_root.data`) names its page's path; Remix matches paths without case. */
function pagePathOf(request: Request): string {
  const pathname = new URL(request.url).pathname.toLowerCase();
  const page = pathname.endsWith(".data") ? pathname.slice(0, -".data".length).replace(/^\/_root$/, "/") : pathname;
  return page.length > 1 ? page.replace(/\/+$/, "") : page;
}

/** Whether the request is for a page of one shopper's own data (or the staff's), whose answer no cache may keep. */
export function isPersonalPage(request: Request): boolean {
  const page = pagePathOf(request);
  return (
    PERSONAL_PAGES.some((personal) => page === personal || page.startsWith(`${personal}/`)) ||
    PERSONAL_PAGE_PREFIXES.some((prefix) => page.startsWith(prefix))
  );
}

function carriesPersonalData(request: Request): boolean {
  return (request.headers.get("Cookie") ?? "").trim() !== "";
}

function declaresPublic(headers: Headers): boolean {
  return /\bpublic\b/.test(headers.get("Cache-Control") ?? "");
}

/** Whether an answer declared public stays so: a 200 (or the 304 confirming one), and no cookie either way. */
function staysPublic(request: Request, status: number, headers: Headers): boolean {
  return (status === 200 || status === 304) && !carriesPersonalData(request) && !headers.has("Set-Cookie");
}

/** Applies the rule above to a response's headers; true when it is public (and so may carry an ETag and be kept by a shared cache). */
export function applyCachePolicy(request: Request, status: number, headers: Headers): boolean {
  if (isPersonalPage(request)) {
    headers.set("Cache-Control", PERSONAL_CACHE_CONTROL);
    return false;
  }
  if (!declaresPublic(headers)) return false;
  if (!staysPublic(request, status, headers)) {
    headers.set("Cache-Control", "private, no-cache");
    return false;
  }
  const vary = headers.get("Vary");
  if (!vary || !/\bcookie\b/i.test(vary)) headers.set("Vary", vary ? `${vary}, Cookie` : "Cookie");
  return true;
}
