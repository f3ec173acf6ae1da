import type { HeadersFunction, LinksFunction } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import type { RouteHandle } from "~/root";
import staffStyles from "~/styles/staff.css";

/**
 * The staff pages (/login, /logout, /dashboard): no store header or footer,
 * their own styles, and never cached, since they hold customers' personal
 * data. A pathless layout, so the URLs stay as they are.
 */
export const handle: RouteHandle = { bareLayout: true };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

/** Child routes without their own headers inherit these. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function StaffLayout() {
  return <Outlet />;
}
