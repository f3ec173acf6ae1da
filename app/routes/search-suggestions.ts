import type { LoaderFunctionArgs } from "@remix-run/node";
import { typeahead } from "~/catalog/queries.server";
import { productPath } from "~/catalog/store-product";
import { getDb } from "~/runtime.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";

const MAX_QUERY_LENGTH = 100;

/** Typeahead results for the header search box: at most five, best first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const text = (new URL(request.url).searchParams.get("q") ?? "").slice(0, MAX_QUERY_LENGTH);
  const matches = await typeahead(await getDb(), text);
  return {
    results: matches.map(({ product, score }) => ({
      score,
      product: { key: product.key, title: product.title, image: product.image, path: productPath(product) },
    })),
  };
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
