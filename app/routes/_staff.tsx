import type { LinksFunction } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import type { RouteHandle } from "~/root";
import staffStyles from "~/styles/staff.css";

/**
 * The staff pages (/login, /logout, /dashboard): no store header or footer,
 * their own styles, and never cached, since they hold customers' personal
 * data (utils/cache-control.server.ts). A pathless layout, so the URLs stay as they are.
 * Search engines index none of them; robots.txt also keeps crawlers from the
 * sign-in and the dashboard, which say so themselves.
 */
export const handle: RouteHandle = { bareLayout: true, personal: true, indexing: "noindex, nofollow" };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export default function StaffLayout() {
  return <Outlet />;
}
