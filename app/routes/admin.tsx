import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/staff/guard.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "private" };

/**
 * The older admin screen. It had its own login form that compared the
 * password in a browser query; here it goes through the same sign-in and
 * guard as /dashboard (an anonymous visitor is sent to /login and back), then
 * opens the dashboard, which shows the same tiles and table. No action:
 * a POST to /admin is refused (405), so no password is ever checked here.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(context.store, request);
  const search = new URL(request.url).search;
  return redirect(`/dashboard${search}`, 303);
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
