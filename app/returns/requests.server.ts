import { randomBytes, randomInt } from "node:crypto";
import { and, asc, eq, inArray, like } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import {
  afterSaleEvents,
  afterSaleLines,
  afterSalePhotos,
  afterSaleRequests,
  OPEN_AFTER_SALE_STATUSES,
  orders,
  products,
  type AfterSaleKind,
  type AfterSaleStatus,
  type ReturnReason,
} from "~/db/schema";
import { ORDER_ID_ALPHABET, normalizeOrderId } from "~/orders/order-id";
import type { ProcessedPhoto } from "./photos.server";
import { evaluateRequest, type RequestedLine } from "./policy";
import { returnFactsOf } from "./product-facts";

/**
 * Opening a return or a defect claim: one transaction that locks the order row (`select ... for
 * update`), so two posts for the same order take turns, then
 *
 * 1. gives back the request an earlier post of the same rendered form made (the form key, a random
 *    value each rendering of the form carries, is kept on the request's "requested" event): a form
 *    sent twice, by a double click, the back button or a replay, makes one request;
 * 2. reads the products' facts, the lines other open requests hold and what earlier refunded returns
 *    took, and asks the policy (policy.ts);
 * 3. writes the request, its lines, its photos and its first event, or nothing at all.
 */

export const REQUEST_NUMBER_LENGTH = 6;
const PREFIX: Record<AfterSaleKind, string> = { return: "R", defect: "D" };

/** "R-7K3P9Q" or "D-4M2X8B": six characters of the order ids' alphabet (no 0/O, 1/I/L), about 8.9e8 each. */
export function newRequestNumber(kind: AfterSaleKind): string {
  let code = "";
  for (let i = 0; i < REQUEST_NUMBER_LENGTH; i += 1) code += ORDER_ID_ALPHABET[randomInt(ORDER_ID_ALPHABET.length)];
  return `${PREFIX[kind]}-${code}`;
}

/** A new form key: 128 random bits as 32 hex digits (no character LIKE treats as a wildcard). */
export function newFormKey(): string {
  return randomBytes(16).toString("hex");
}
export const FORM_KEY_PATTERN = /^[0-9a-f]{32}$/;

export interface NewRequest {
  kind: AfterSaleKind;
  orderId: string;
  lines: RequestedLine[];
  reason: ReturnReason;
  note: string;
  serialNumber?: string | null;
  videoUrl?: string | null;
  photos: ProcessedPhoto[];
  formKey: string;
  now?: Date;
}

export type CreateRequestResult =
  | { status: "created"; request: { id: string; number: string } }
  | { status: "replayed"; request: { id: string; number: string } }
  | { status: "refused"; refusals: string[] }
  | { status: "not-found" };

const formMark = (formKey: string) => `(form ${formKey})`;

export async function createAfterSaleRequest(db: Database, input: NewRequest): Promise<CreateRequestResult> {
  if (!FORM_KEY_PATTERN.test(input.formKey)) throw new Error("A form key is 32 hex digits");
  const orderId = normalizeOrderId(input.orderId);
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ status: orders.status, items: orders.items, shippedAt: orders.shippedAt, deliveredAt: orders.deliveredAt })
      .from(orders)
      .where(eq(orders.orderId, orderId))
      .for("update");
    if (!order) return { status: "not-found" } as const;

    const [earlier] = await tx
      .select({ id: afterSaleRequests.id, number: afterSaleRequests.number })
      .from(afterSaleEvents)
      .innerJoin(afterSaleRequests, eq(afterSaleRequests.id, afterSaleEvents.requestId))
      .where(
        and(
          eq(afterSaleRequests.orderId, orderId),
          eq(afterSaleEvents.action, "requested"),
          like(afterSaleEvents.detail, `%${formMark(input.formKey)}`),
        ),
      );
    if (earlier) return { status: "replayed", request: earlier } as const;

    const keys = [...new Set(order.items.map((item) => item.productKey))];
    const rows =
      keys.length === 0
        ? []
        : await tx
            .select({
              key: products.key,
              brand: products.brand,
              categories: products.categories,
              specifications: products.specifications,
              nonReturnable: products.nonReturnable,
              customMade: products.customMade,
              madeToOrder: products.madeToOrder,
            })
            .from(products)
            .where(inArray(products.key, keys));
    const byKey = new Map(rows.map((row) => [row.key, row]));
    const held = await tx
      .select({
        lineIndex: afterSaleLines.lineIndex,
        quantity: afterSaleLines.quantity,
        number: afterSaleRequests.number,
        status: afterSaleRequests.status,
        kind: afterSaleRequests.kind,
      })
      .from(afterSaleLines)
      .innerJoin(afterSaleRequests, eq(afterSaleRequests.id, afterSaleLines.requestId))
      .where(eq(afterSaleLines.orderId, orderId));
    const open: readonly AfterSaleStatus[] = OPEN_AFTER_SALE_STATUSES;
    const returnedQuantities = new Map<number, number>();
    for (const line of held) {
      if (line.kind === "return" && (line.status === "received" || line.status === "refunded")) {
        returnedQuantities.set(line.lineIndex, (returnedQuantities.get(line.lineIndex) ?? 0) + line.quantity);
      }
    }

    const decision = evaluateRequest({
      order: {
        status: order.status,
        shippedAt: order.shippedAt,
        deliveredAt: order.deliveredAt,
        lines: order.items.map((item) => ({
          title: item.title,
          quantity: item.quantity,
          facts: returnFactsOf(byKey.get(item.productKey) ?? null, item.brand),
        })),
      },
      request: {
        kind: input.kind,
        lines: input.lines,
        reason: input.reason,
        photoCount: input.photos.length,
        hasVideoLink: Boolean(input.videoUrl),
      },
      openLines: held.filter((line) => open.includes(line.status)),
      returnedQuantities,
      now,
    });
    if (!decision.allowed) return { status: "refused", refusals: decision.refusals } as const;

    let number = newRequestNumber(input.kind);
    while ((await tx.select({ id: afterSaleRequests.id }).from(afterSaleRequests).where(eq(afterSaleRequests.number, number))).length > 0) {
      number = newRequestNumber(input.kind);
    }
    const [created] = await tx
      .insert(afterSaleRequests)
      .values({
        number,
        orderId,
        kind: input.kind,
        reason: input.reason,
        note: input.note,
        serialNumber: input.serialNumber ?? null,
        videoUrl: input.videoUrl ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: afterSaleRequests.id, number: afterSaleRequests.number });
    if (!created) throw new Error("The request was not written");
    await tx.insert(afterSaleLines).values(
      input.lines.map((line) => ({
        requestId: created.id,
        orderId,
        lineIndex: line.lineIndex,
        productKey: order.items[line.lineIndex]?.productKey ?? "",
        quantity: line.quantity,
      })),
    );
    if (input.photos.length > 0) {
      await tx.insert(afterSalePhotos).values(
        input.photos.map((photo) => ({
          requestId: created.id,
          contentType: photo.contentType,
          width: photo.width,
          height: photo.height,
          data: photo.data,
        })),
      );
    }
    const what = input.kind === "return" ? `Return requested: ${input.reason}` : "Defect reported";
    const photos = input.photos.length === 1 ? "1 photo" : `${input.photos.length} photos`;
    await tx.insert(afterSaleEvents).values({
      requestId: created.id,
      actor: "customer",
      action: "requested",
      detail: `${what}, ${photos} ${formMark(input.formKey)}`,
      createdAt: now,
    });
    return { status: "created", request: created } as const;
  });
}

export interface CustomerRequestView {
  number: string;
  kind: AfterSaleKind;
  status: AfterSaleStatus;
  reason: ReturnReason;
  createdAt: string;
  authorizationNumber: string | null;
  labelUrl: string | null;
  declineReason: string | null;
  lines: Array<{ lineIndex: number; quantity: number }>;
}

/** An order's requests as their customer sees them (no photos, no staff notes). */
export async function requestsOfOrder(db: Database, orderId: string): Promise<CustomerRequestView[]> {
  const id = normalizeOrderId(orderId);
  const requests = await db
    .select({
      id: afterSaleRequests.id,
      number: afterSaleRequests.number,
      kind: afterSaleRequests.kind,
      status: afterSaleRequests.status,
      reason: afterSaleRequests.reason,
      createdAt: afterSaleRequests.createdAt,
      authorizationNumber: afterSaleRequests.authorizationNumber,
      labelUrl: afterSaleRequests.labelUrl,
      declineReason: afterSaleRequests.declineReason,
    })
    .from(afterSaleRequests)
    .where(eq(afterSaleRequests.orderId, id))
    .orderBy(asc(afterSaleRequests.createdAt));
  if (requests.length === 0) return [];
  const lines = await db
    .select({ requestId: afterSaleLines.requestId, lineIndex: afterSaleLines.lineIndex, quantity: afterSaleLines.quantity })
    .from(afterSaleLines)
    .where(
      inArray(
        afterSaleLines.requestId,
        requests.map((request) => request.id),
      ),
    );
  return requests.map(({ id: requestId, createdAt, ...request }) => ({
    ...request,
    createdAt: createdAt.toISOString(),
    lines: lines.filter((line) => line.requestId === requestId).map(({ lineIndex, quantity }) => ({ lineIndex, quantity })),
  }));
}
