import type { StoreRuntime } from "~/store-runtime";
import { isOutboxActive } from "~/services/email/index.server";
import { currentStaff } from "./guard.server";

/**
 * The offline email outbox holds customers' names, addresses and messages:
 * it exists only while the offline mailer is the active sender, and only for
 * a signed-in staff member (or anyone on a development build). Everyone else
 * gets a 404, as if the page did not exist.
 */
export async function requireOutboxAccess(store: StoreRuntime, request: Request): Promise<void> {
  const allowed =
    isOutboxActive(store.config) && (store.config.NODE_ENV === "development" || (await currentStaff(store, request)) !== null);
  if (!allowed) throw new Response("Not Found", { status: 404 });
}
