import type { Database } from "~/db/database.server";
import { afterSaleEvents } from "~/db/schema";

/** One step of a return or defect claim in its history (`after_sale_events`): who did what, and the detail staff and the desk read. */
export async function audit(db: Pick<Database, "insert">, requestId: string, actor: string, action: string, detail: string | null = null) {
  await db.insert(afterSaleEvents).values({ requestId, actor, action, detail });
}
