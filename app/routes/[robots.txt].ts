import type { LoaderFunctionArgs } from "@remix-run/node";
import { publicBaseUrl } from "~/config.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";

/** Keep crawlers out of carts, checkouts, search results and staff pages. */
export async function loader({ context }: LoaderFunctionArgs) {
  const origin = publicBaseUrl(context.store.config);
  const body = [
    "User-agent: *",
    "Disallow: /cart",
    "Disallow: /checkout",
    "Disallow: /single-product-checkout",
    "Disallow: /custom-product-checkout",
    "Disallow: /checkout-authorized",
    "Disallow: /checkout-confirmation",
    "Disallow: /order-status/",
    "Disallow: /finding/",
    "Disallow: /search-suggestions",
    "Disallow: /login",
    "Disallow: /dashboard",
    "Disallow: /admin",
    "Disallow: /dev/",
    "Disallow: /chatbot",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" } });
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
