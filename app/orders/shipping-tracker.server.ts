import type { ServiceDeps } from "~/store-runtime";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { orders } from "~/db/schema";
import { findOrderByDisplayId } from "./orders.server";
import { easyPostCarrier } from "./shipping";

/** The parcel-tracking jobs, apart from the emails so the start-up's job step imports no page code. */

/**
 * The `shipment.track` job: asks EasyPost to follow the order's parcel and keeps its tracker id. A
 * parcel already followed, or an order without one, needs nothing; a failure throws, and the job queue
 * tries again with back-off.
 */
export async function trackShipment(
  { db, shipmentTracker: tracker }: Pick<ServiceDeps, "db" | "shipmentTracker">,
  orderId: string,
): Promise<"tracked" | "nothing-to-do"> {
  const order = await findOrderByDisplayId(db, orderId);
  if (!order?.carrier || !order.trackingNumber || order.trackerId || tracker.isStandIn) return "nothing-to-do";
  const state = await tracker.track({ trackingCode: order.trackingNumber, carrier: easyPostCarrier(order.carrier) });
  if (!state) return "nothing-to-do";
  await db
    .update(orders)
    .set({
      trackerId: state.id,
      ...(state.deliveredAt ? { deliveredAt: sql`coalesce(${orders.deliveredAt}, ${state.deliveredAt.toISOString()}::timestamptz)` } : {}),
    })
    // The number may have been corrected while EasyPost answered: the tracker belongs to the number it was made for.
    .where(and(eq(orders.orderId, order.orderId), eq(orders.trackingNumber, order.trackingNumber), isNull(orders.trackerId)));
  return "tracked";
}

/** Start-up: queues a tracker for every shipped parcel EasyPost does not follow yet (a job lost with its process). */
export async function scheduleUntrackedShipments({
  db,
  jobs,
  shipmentTracker,
}: Pick<ServiceDeps, "db" | "jobs" | "shipmentTracker">): Promise<number> {
  if (shipmentTracker.isStandIn) return 0;
  const untracked = await db
    .select({ orderId: orders.orderId })
    .from(orders)
    .where(and(isNotNull(orders.trackingNumber), isNull(orders.trackerId), isNull(orders.deliveredAt)));
  for (const { orderId } of untracked) await jobs.send("shipment.track", { id: orderId });
  return untracked.length;
}
