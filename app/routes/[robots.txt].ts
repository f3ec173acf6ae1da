import type { LoaderFunctionArgs } from "@remix-run/node";
import { publicBaseUrl } from "~/config.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";

/**
 * Keeps crawlers out of the pages whose routes declare them not to be crawled (`handle = { indexing: "private" }`:
 * carts, checkouts, order pages, search results, staff pages), read from the build's routes at start.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const origin = publicBaseUrl(context.store.config);
  const body = [
    "User-agent: *",
    ...context.store.privatePaths.map((path) => `Disallow: ${path}`),
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" } });
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
