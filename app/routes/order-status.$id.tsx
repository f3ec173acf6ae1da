import type { RouteHandle } from "~/root";
import { handle as lookupHandle } from "./order-status._index";

export { default, loader, meta } from "./order-status._index";

/** The lookup with the order's id in its path is the order's own page: kept out of search engines, unlike the lookup form. */
export const handle: RouteHandle = { ...lookupHandle, indexing: "private" };
