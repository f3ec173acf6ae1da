import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { categoryPath } from "~/components/shared";
import { refuseNonGet } from "~/utils/allowed-methods.server";

/**
 * Target of the brand and category dropdown forms (GET, so they work without
 * script): turns ?brand=&category= into the list's path. Choosing a brand
 * alone clears the category.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const brand = params.get("brand")?.trim() || "all";
  const category = params.get("category")?.trim() || "all";
  return redirect(categoryPath(category, brand));
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
