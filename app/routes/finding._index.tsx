import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { refuseNonGet } from "~/utils/allowed-methods.server";

/** The header search form (GET /finding?q=) lands here and goes to /finding/{text}. */
export async function loader({ request }: LoaderFunctionArgs) {
  const text = (new URL(request.url).searchParams.get("q") ?? "").trim();
  return redirect(text ? `/finding/${encodeURIComponent(text)}` : "/products/all/all");
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
