import type { LoaderFunctionArgs } from "@remix-run/node";
import { refuseNonGet } from "~/utils/allowed-methods.server";

/** Health check for the container: 200 when the database answers, 503 when it does not. */
export async function loader({ context }: LoaderFunctionArgs) {
  const reachable = await context.store.database.ping().catch(() => false);
  return Response.json(
    { status: reachable ? "ok" : "unavailable", database: reachable ? "reachable" : "unreachable" },
    { status: reachable ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
