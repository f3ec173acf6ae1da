import { and, asc, desc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import {
  afterSaleEvents,
  afterSaleLines,
  afterSalePhotos,
  afterSaleRequests,
  OPEN_AFTER_SALE_STATUSES,
  orders,
  type AfterSaleKind,
  type AfterSaleStatus,
  type OrderItem,
  type ReturnReason,
} from "~/db/schema";
import { paymentOfOrder } from "~/payments/order-payment.server";
import { partlyRefundedCents } from "~/payments/refunds.server";
import { warehouseAddress } from "~/services/shipping/index.server";
import { DESK_STATUSES, NO_LABEL_RETURN_SHIPPING_CENTS, returnRefund, type DeskStatus, type ReturnRefund } from "./returns-desk";

/**
 * The staff returns desk's reads: the lists of returns and defect claims, newest open first, a request's
 * page with the refund it proposes (`returns-desk.ts`), its photos, and the printable instructions of an
 * approved return. Its steps (approve, decline, receive and refund) are in returns-desk-flow.server.ts,
 * the return label in return-label.server.ts, the form they read in returns-desk-form.server.ts.
 */

export interface DeskRow {
  number: string;
  kind: AfterSaleKind;
  orderId: string;
  customerName: string;
  reason: ReturnReason;
  status: AfterSaleStatus;
  createdAt: Date;
}

const LIST_LIMIT = 100;
const CLOSED_LIMIT = 50;
/** One status's requests per page. */
export const DESK_PAGE_SIZE = 50;

export function parseDeskStatus(value: string | null): DeskStatus | null {
  return DESK_STATUSES.find((status) => status === value) ?? null;
}

export interface DeskLists {
  open: DeskRow[];
  closed: DeskRow[];
  /** The lists stop there: more open or closed requests than shown (the whole desk), or another page (one status). */
  hasMore: boolean;
}

/**
 * Open requests (requested, approved, received), oldest first, then the most recent closed ones; or one
 * status, a page of DESK_PAGE_SIZE at a time.
 */
export async function listDeskRequests(db: Database, status: DeskStatus | null, page = 1): Promise<DeskLists> {
  const columns = {
    number: afterSaleRequests.number,
    kind: afterSaleRequests.kind,
    orderId: afterSaleRequests.orderId,
    customerName: sql<string>`${orders.customer} ->> 'name'`,
    reason: afterSaleRequests.reason,
    status: afterSaleRequests.status,
    createdAt: afterSaleRequests.createdAt,
  };
  const open = OPEN_AFTER_SALE_STATUSES as readonly string[];
  const select = () => db.select(columns).from(afterSaleRequests).innerJoin(orders, eq(orders.orderId, afterSaleRequests.orderId));
  if (status) {
    const rows = await select()
      .where(eq(afterSaleRequests.status, status))
      .orderBy(open.includes(status) ? asc(afterSaleRequests.createdAt) : desc(afterSaleRequests.updatedAt), asc(afterSaleRequests.number))
      .limit(DESK_PAGE_SIZE + 1)
      .offset((page - 1) * DESK_PAGE_SIZE);
    const shown = rows.slice(0, DESK_PAGE_SIZE);
    const hasMore = rows.length > DESK_PAGE_SIZE;
    return open.includes(status) ? { open: shown, closed: [], hasMore } : { open: [], closed: shown, hasMore };
  }
  const [openRows, closedRows] = await Promise.all([
    select()
      .where(inArray(afterSaleRequests.status, [...OPEN_AFTER_SALE_STATUSES]))
      .orderBy(asc(afterSaleRequests.createdAt))
      .limit(LIST_LIMIT + 1),
    select()
      .where(notInArray(afterSaleRequests.status, [...OPEN_AFTER_SALE_STATUSES]))
      .orderBy(desc(afterSaleRequests.updatedAt))
      .limit(CLOSED_LIMIT + 1),
  ]);
  return {
    open: openRows.slice(0, LIST_LIMIT),
    closed: closedRows.slice(0, CLOSED_LIMIT),
    hasMore: openRows.length > LIST_LIMIT || closedRows.length > CLOSED_LIMIT,
  };
}

export interface DeskLine {
  lineIndex: number;
  title: string;
  model: string;
  unitPriceCents: number;
  orderedQuantity: number;
  quantity: number;
}

export interface DeskEvent {
  actor: string;
  action: string;
  detail: string | null;
  createdAt: Date;
}

export interface DeskDetail {
  id: string;
  number: string;
  kind: AfterSaleKind;
  status: AfterSaleStatus;
  reason: ReturnReason;
  note: string;
  serialNumber: string | null;
  videoUrl: string | null;
  authorizationNumber: string | null;
  labelUrl: string | null;
  declineReason: string | null;
  refundCents: number | null;
  refundReference: string | null;
  refundStartedAt: Date | null;
  refundedAt: Date | null;
  createdAt: Date;
  order: {
    orderId: string;
    customerName: string;
    email: string;
    paymentMethod: string;
    paymentProvider: string;
    subtotalCents: number;
    shippingCents: number;
    discountCents: number;
    totalCents: number;
    deliveredAt: Date | null;
  };
  lines: DeskLine[];
  photoIds: string[];
  events: DeskEvent[];
  /** For a return that is approved or received and not refunded: the refund the desk proposes. */
  refund: ReturnRefund | null;
}

const REQUEST_NUMBER = /^[RD]-[A-Z0-9]{4,16}$/;

export function normalizeRequestNumber(input: string): string | null {
  const number = input.trim().toUpperCase();
  return REQUEST_NUMBER.test(number) ? number : null;
}

export async function deskDetail(db: Database, numberInput: string): Promise<DeskDetail | null> {
  const number = normalizeRequestNumber(numberInput);
  if (!number) return null;
  const [row] = await db
    .select({ request: afterSaleRequests, order: orders })
    .from(afterSaleRequests)
    .innerJoin(orders, eq(orders.orderId, afterSaleRequests.orderId))
    .where(eq(afterSaleRequests.number, number));
  if (!row) return null;
  const { request, order } = row;
  const [lineRows, photoRows, eventRows] = await Promise.all([
    db.select().from(afterSaleLines).where(eq(afterSaleLines.requestId, request.id)).orderBy(asc(afterSaleLines.lineIndex)),
    db
      .select({ id: afterSalePhotos.id })
      .from(afterSalePhotos)
      .where(eq(afterSalePhotos.requestId, request.id))
      .orderBy(asc(afterSalePhotos.createdAt)),
    db
      .select({
        actor: afterSaleEvents.actor,
        action: afterSaleEvents.action,
        detail: afterSaleEvents.detail,
        createdAt: afterSaleEvents.createdAt,
      })
      .from(afterSaleEvents)
      .where(eq(afterSaleEvents.requestId, request.id))
      .orderBy(asc(afterSaleEvents.createdAt), asc(afterSaleEvents.id)),
  ]);
  const lines = lineRows.map((line) => toDeskLine(order.items, line.lineIndex, line.quantity));
  const refundable = request.kind === "return" && (request.status === "approved" || request.status === "received") && !request.refundedAt;
  return {
    id: request.id,
    number: request.number,
    kind: request.kind,
    status: request.status,
    reason: request.reason,
    note: request.note,
    serialNumber: request.serialNumber,
    videoUrl: request.videoUrl,
    authorizationNumber: request.authorizationNumber,
    labelUrl: request.labelUrl,
    declineReason: request.declineReason,
    refundCents: request.refundCents,
    refundReference: request.refundReference,
    refundStartedAt: request.refundStartedAt,
    refundedAt: request.refundedAt,
    createdAt: request.createdAt,
    order: {
      orderId: order.orderId,
      customerName: order.customer.name,
      email: order.customer.email,
      paymentMethod: order.paymentMethod,
      paymentProvider: order.paymentProvider,
      subtotalCents: order.subtotalCents,
      shippingCents: order.shippingCents,
      discountCents: order.discountCents,
      totalCents: order.totalCents,
      deliveredAt: order.deliveredAt,
    },
    lines,
    photoIds: photoRows.map((photo) => photo.id),
    events: eventRows,
    refund: refundable ? await proposedRefund(db, order, lines, request.labelCostCents) : null,
  };
}

function toDeskLine(items: OrderItem[], lineIndex: number, quantity: number): DeskLine {
  const item = items[lineIndex];
  return {
    lineIndex,
    title: item?.title ?? "(line not on the order)",
    model: item?.model ?? "",
    unitPriceCents: item?.unitPriceCents ?? 0,
    orderedQuantity: item?.quantity ?? 0,
    quantity,
  };
}

/** The audit action of a bought return label (its cost is the request's `labelCostCents`). */
export const LABEL_BOUGHT = "return label bought";

async function proposedRefund(
  db: Database,
  order: typeof orders.$inferSelect,
  lines: DeskLine[],
  /** What the return label cost the store (it bought at most one); null without a label. */
  labelCostCents: number | null,
): Promise<ReturnRefund> {
  const payment = await paymentOfOrder(db, order.orderId);
  const refundableCents = payment ? (payment.refundedAt ? 0 : payment.amountCents - (await partlyRefundedCents(db, payment))) : 0;
  return returnRefund({
    lines: lines.map((line) => ({
      unitPriceCents: line.unitPriceCents,
      orderedQuantity: line.orderedQuantity,
      quantity: line.quantity,
      taxCents: order.items[line.lineIndex]?.taxCents ?? 0,
    })),
    subtotalCents: order.subtotalCents,
    discountCents: order.discountCents,
    returnShippingCents: labelCostCents ?? NO_LABEL_RETURN_SHIPPING_CENTS,
    refundableCents,
  });
}

/** Photos are served to staff only (the photo route); `requestNumber` keeps a photo id from another request out. */
export async function deskPhoto(db: Database, numberInput: string, photoId: string) {
  const number = normalizeRequestNumber(numberInput);
  if (!number || !z.uuid().safeParse(photoId).success) return null;
  const [row] = await db
    .select({ contentType: afterSalePhotos.contentType, data: afterSalePhotos.data })
    .from(afterSalePhotos)
    .innerJoin(afterSaleRequests, eq(afterSaleRequests.id, afterSalePhotos.requestId))
    .where(and(eq(afterSalePhotos.id, photoId), eq(afterSaleRequests.number, number)));
  return row ?? null;
}

/** The public page of a return's printed instructions: unguessable, the request's number and its authorization number. */
export function returnInstructionsPath(number: string, authorizationNumber: string): string {
  return `/return-instructions/${encodeURIComponent(number)}/${encodeURIComponent(authorizationNumber)}`;
}

export interface ReturnInstructions {
  number: string;
  authorizationNumber: string;
  orderId: string;
  decidedAt: Date | null;
  lines: { title: string; model: string; quantity: number }[];
  returnAddress: string[];
}

/** The printable instructions of an approved return (only while it is), for whoever holds both its numbers (the customer's email link). */
export async function returnInstructions(
  db: Database,
  config: Pick<Config, "STORE_NAME">,
  numberInput: string,
  authorizationInput: string,
): Promise<ReturnInstructions | null> {
  const number = normalizeRequestNumber(numberInput);
  const authorizationNumber = authorizationInput.trim().toUpperCase();
  if (!number || !/^RA-[A-Z0-9]{8}$/.test(authorizationNumber)) return null;
  const [row] = await db
    .select({ request: afterSaleRequests, items: orders.items })
    .from(afterSaleRequests)
    .innerJoin(orders, eq(orders.orderId, afterSaleRequests.orderId))
    .where(
      and(
        eq(afterSaleRequests.number, number),
        eq(afterSaleRequests.authorizationNumber, authorizationNumber),
        eq(afterSaleRequests.kind, "return"),
        // Only while the return is approved: a declined one was never to be sent, a received one has arrived.
        eq(afterSaleRequests.status, "approved"),
      ),
    );
  if (!row) return null;
  const lineRows = await db
    .select()
    .from(afterSaleLines)
    .where(eq(afterSaleLines.requestId, row.request.id))
    .orderBy(asc(afterSaleLines.lineIndex));
  return {
    number,
    authorizationNumber,
    orderId: row.request.orderId,
    decidedAt: row.request.decidedAt,
    lines: lineRows.map((line) => {
      const item = row.items[line.lineIndex];
      return { title: item?.title ?? "", model: item?.model ?? "", quantity: line.quantity };
    }),
    returnAddress: returnAddressLines(config),
  };
}

/** The return address printed on the instructions: the warehouse parcels leave from. */
export function returnAddressLines(config: Pick<Config, "STORE_NAME">): string[] {
  const address = warehouseAddress(config);
  return [address.name ?? "", address.street1, `${address.city}, ${address.state} ${address.zip}`].filter(Boolean);
}
