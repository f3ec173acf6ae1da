import { getRuntime } from "~/runtime.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";

/** How long a readiness check waits for a process still starting before it says "not yet". */
const STARTING_GRACE_MS = 1_000;

/**
 * Readiness for a load balancer: 200 once the process has started (migrated,
 * catalogue loaded) and its database answers, 503 while it is still starting
 * or the database is away, so a proxy sends it shoppers only when it can serve them.
 */
export async function loader() {
  const started = getRuntime().then(
    (runtime) => runtime.database.ping(),
    () => false,
  );
  const stillStarting = new Promise<false>((resolve) => setTimeout(() => resolve(false), STARTING_GRACE_MS).unref());
  const ready = await Promise.race([started, stillStarting]);
  return Response.json(
    { status: ready ? "ready" : "unavailable" },
    { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
