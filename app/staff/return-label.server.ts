import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { afterSaleLines, afterSaleRequests, orders, products } from "~/db/schema";
import { specMap } from "~/catalog/variations";
import { logError } from "~/observability/logger.server";
import { buyEasyPostReturnLabel, type ReturnLabel } from "~/services/shipping/easypost-return-label.server";
import { warehouseAddress } from "~/services/shipping/index.server";
import { productParcel } from "~/services/shipping/parcel";
import type { Parcel } from "~/services/shipping/types";
import { formatUsd } from "~/utils/format";
import { audit } from "./desk-events.server";
import { LABEL_BOUGHT } from "./returns-desk.server";

/** An approved return's authorization number and, with EasyPost, its prepaid label. */

const AUTHORIZATION_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** "RA-" and 8 characters no one misreads (no 0/O, 1/I/L): about 8.5e11 numbers. */
export function newAuthorizationNumber(): string {
  let text = "RA-";
  for (let index = 0; index < 8; index++) text += AUTHORIZATION_ALPHABET[randomInt(AUTHORIZATION_ALPHABET.length)];
  return text;
}

/**
 * With EASYPOST_API_KEY, buys the return's prepaid label (customer to warehouse, its lowest rate) and
 * records it: the request's label URL and its cost (which the refund deducts), and an event in its history.
 * Without a key, or when EasyPost fails (logged, written in the history), the printable instructions stay.
 */
export async function returnLabelFor(
  db: Database,
  config: Config,
  requestId: string,
  number: string,
  actor: string,
): Promise<ReturnLabel | null> {
  if (!config.EASYPOST_API_KEY) return null;
  const [row] = await db
    .select({ customer: orders.customer, items: orders.items })
    .from(afterSaleRequests)
    .innerJoin(orders, eq(orders.orderId, afterSaleRequests.orderId))
    .where(eq(afterSaleRequests.id, requestId));
  if (!row) return null;
  try {
    const label = await buyEasyPostReturnLabel(
      { apiKey: config.EASYPOST_API_KEY, ...(config.EASYPOST_API_BASE ? { baseUrl: config.EASYPOST_API_BASE } : {}) },
      {
        customer: {
          name: row.customer.name,
          street1: row.customer.address,
          city: row.customer.city,
          state: row.customer.state,
          zip: row.customer.postalCode,
          country: "US",
          phone: row.customer.phone,
        },
        warehouse: warehouseAddress(config),
        parcel: await returnParcel(db, requestId),
        reference: number,
      },
    );
    await db
      .update(afterSaleRequests)
      .set({ labelUrl: label.labelUrl, labelCostCents: label.costCents, updatedAt: new Date() })
      .where(eq(afterSaleRequests.id, requestId));
    await audit(
      db,
      requestId,
      actor,
      LABEL_BOUGHT,
      `${label.carrier} ${label.service}, cost ${formatUsd(label.costCents)}, EasyPost shipment ${label.shipmentId}`,
    );
    return label;
  } catch (error) {
    logError(`Return ${number}: EasyPost return label not bought; the customer gets printable instructions`, error);
    await audit(db, requestId, actor, "return label not bought", error instanceof Error ? error.message.slice(0, 300) : String(error));
    return null;
  }
}

/** The returned lines' parcel: each product's catalogue size and weight, stacked (the heaviest line's box, every line's weight). */
async function returnParcel(db: Database, requestId: string): Promise<Parcel> {
  const rows = await db
    .select({ quantity: afterSaleLines.quantity, specifications: products.specifications })
    .from(afterSaleLines)
    .leftJoin(products, eq(products.key, afterSaleLines.productKey))
    .where(eq(afterSaleLines.requestId, requestId));
  const parcels = rows.map((row) => {
    const specs = specMap(row.specifications ?? []);
    return productParcel(
      { Width: specs.get("Width"), Depth: specs.get("Depth"), Height: specs.get("Height"), Weight: specs.get("Weight") },
      Math.max(1, row.quantity),
    );
  });
  if (parcels.length === 0) return productParcel({}, 1);
  return {
    length: Math.max(...parcels.map((parcel) => parcel.length)),
    width: Math.max(...parcels.map((parcel) => parcel.width)),
    height: Math.round(parcels.reduce((sum, parcel) => sum + parcel.height, 0) * 100) / 100,
    weight: Math.round(parcels.reduce((sum, parcel) => sum + parcel.weight, 0) * 100) / 100,
  };
}
