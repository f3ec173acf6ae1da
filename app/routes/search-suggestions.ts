import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { searchSuggestions } from "~/catalog/search-suggestions.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";
import type { RouteHandle } from "~/root";

const MAX_QUERY_LENGTH = 100;

export const handle: RouteHandle = { indexing: "private" };

/** Typeahead results for the header search box: at most five, best first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const text = (new URL(request.url).searchParams.get("q") ?? "").slice(0, MAX_QUERY_LENGTH);
  const body = { results: await searchSuggestions(context.store.db, text) };
  // The same for everyone until the catalogue changes: browsers and shared caches may keep it a few minutes.
  // A resource route: a Response keeps its headers (json() also keeps the body's type for the search box's fetcher).
  return json(body, { headers: { "Cache-Control": "public, max-age=300, stale-while-revalidate=3600" } });
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
