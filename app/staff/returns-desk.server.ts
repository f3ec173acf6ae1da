import { randomInt } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, lt, notInArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { publicBaseUrl, type Config } from "~/config.server";
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
  type OrderItem,
  type ReturnReason,
} from "~/db/schema";
import { paymentOfOrder } from "~/payments/order-payment.server";
import { partlyRefundedCents, refundPartOfPayment } from "~/payments/refunds.server";
import { queueTaxRecording, recordReturnTaxReversal } from "~/tax/tax-transactions.server";
import { sendDeskEmail, type DeskEmailRequest } from "~/returns/desk-emails.server";
import { PAYMENT_METHODS, isPaymentMethod } from "~/services/payments/types";
import { specMap } from "~/catalog/variations";
import { logError } from "~/observability/logger.server";
import { buyEasyPostReturnLabel, type ReturnLabel } from "~/services/shipping/easypost-return-label.server";
import { warehouseAddress } from "~/services/shipping/index.server";
import { productParcel } from "~/services/shipping/parcel";
import type { Parcel } from "~/services/shipping/types";
import { formatUsd } from "~/utils/format";
import {
  DESK_STATUSES,
  NO_LABEL_RETURN_SHIPPING_CENTS,
  parseDollars,
  returnRefund,
  type DeskStatus,
  type ReturnRefund,
} from "./returns-desk";
import type { StaffUser } from "./staff-user";

/**
 * The staff returns desk (issue 41, item 4): returns and defect claims, newest open first; approve
 * (authorization number and label, or the warranty acknowledgement), decline with a reason, and mark a
 * return received, which refunds its lines (less shipping both ways, `returns-desk.ts`) as a partial
 * refund of the order's payment. Each step is one conditional update, so a double submit or a second
 * process changes nothing twice; each writes an audit event and emails the customer once.
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
    refund: refundable ? await proposedRefund(db, order, lines, eventRows) : null,
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

/** The audit action of a bought return label; its detail carries the cost as `LABEL_COST` writes it. */
const LABEL_BOUGHT = "return label bought";
const LABEL_COST = /cost \$([\d,]+)\.(\d{2})/;

/** What the label cost, from its audit event (the store bought at most one); none without a label. */
function returnShippingCents(events: DeskEvent[]): number {
  const bought = events.find((event) => event.action === LABEL_BOUGHT);
  const cost = bought?.detail ? LABEL_COST.exec(bought.detail) : null;
  return cost ? Number(cost[1]!.replaceAll(",", "")) * 100 + Number(cost[2]) : NO_LABEL_RETURN_SHIPPING_CENTS;
}

async function proposedRefund(
  db: Database,
  order: typeof orders.$inferSelect,
  lines: DeskLine[],
  events: DeskEvent[],
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
    returnShippingCents: returnShippingCents(events),
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

// ---------------------------------------------------------------------------------------------
// The three steps.

export type DeskOutcome = { ok: true; message: string } | { ok: false; status: number; message: string };

export const deskForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve") }),
  z.object({
    intent: z.literal("decline"),
    reason: z
      .string()
      .trim()
      .min(1, "Say why the request is declined: the customer reads it.")
      .max(1000, "The reason can be at most 1,000 characters."),
  }),
  z.object({
    intent: z.literal("receive"),
    amount: z
      .string()
      .max(20)
      .refine((value) => parseDollars(value) !== null, "Enter the refund in dollars and cents, e.g. 84.50."),
  }),
]);

const AUTHORIZATION_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** "RA-" and 8 characters no one misreads (no 0/O, 1/I/L): about 8.5e11 numbers. */
export function newAuthorizationNumber(): string {
  let text = "RA-";
  for (let index = 0; index < 8; index++) text += AUTHORIZATION_ALPHABET[randomInt(AUTHORIZATION_ALPHABET.length)];
  return text;
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

/** The printable instructions of an approved return, for whoever holds both its numbers (the customer's email link). */
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

async function audit(db: Pick<Database, "insert">, requestId: string, actor: string, action: string, detail: string | null = null) {
  await db.insert(afterSaleEvents).values({ requestId, actor, action, detail });
}

async function emailRequestOf(db: Database, requestId: string): Promise<DeskEmailRequest | null> {
  const [row] = await db
    .select({ request: afterSaleRequests, order: orders })
    .from(afterSaleRequests)
    .innerJoin(orders, eq(orders.orderId, afterSaleRequests.orderId))
    .where(eq(afterSaleRequests.id, requestId));
  if (!row) return null;
  return {
    id: row.request.id,
    number: row.request.number,
    orderId: row.order.orderId,
    kind: row.request.kind,
    customer: { email: row.order.customer.email, firstName: row.order.customer.firstName },
  };
}

async function refusal(db: Database, number: string, doing: string): Promise<DeskOutcome & { ok: false }> {
  const [row] = await db.select().from(afterSaleRequests).where(eq(afterSaleRequests.number, number));
  if (!row) return { ok: false, status: 404, message: `Request ${number} was not found.` };
  return { ok: false, status: 409, message: `Request ${number} is ${row.status}, so it cannot be ${doing} now.` };
}

/**
 * Approves a requested return (an authorization number and its printable instructions) or defect
 * claim (passed to the manufacturer's warranty), once: the update only moves a request still
 * `requested`, so a second post answers 409 and sends nothing.
 */
export async function approveRequest(db: Database, config: Config, input: { number: string; staff: StaffUser }): Promise<DeskOutcome> {
  const number = normalizeRequestNumber(input.number);
  if (!number) return { ok: false, status: 404, message: "Request not found." };
  const [current] = await db
    .select({ id: afterSaleRequests.id, kind: afterSaleRequests.kind })
    .from(afterSaleRequests)
    .where(eq(afterSaleRequests.number, number));
  if (!current) return { ok: false, status: 404, message: `Request ${number} was not found.` };

  const authorizationNumber = current.kind === "return" ? newAuthorizationNumber() : null;
  const labelUrl = authorizationNumber ? `${publicBaseUrl(config)}${returnInstructionsPath(number, authorizationNumber)}` : null;
  const [approved] = await db
    .update(afterSaleRequests)
    .set({ status: "approved", authorizationNumber, labelUrl, decidedAt: sql`now()`, updatedAt: new Date() })
    .where(and(eq(afterSaleRequests.id, current.id), eq(afterSaleRequests.status, "requested")))
    .returning({ id: afterSaleRequests.id });
  if (!approved) return refusal(db, number, "approved");

  await audit(db, current.id, input.staff.email, "approved", authorizationNumber ?? "passed to the manufacturer's warranty");
  // Only the post that approved gets here, so at most one label is bought per request.
  const label = authorizationNumber ? await returnLabelFor(db, config, current.id, number, input.staff.email) : null;
  const recipient = await emailRequestOf(db, current.id);
  if (recipient) {
    await sendDeskEmail(
      db,
      config,
      recipient,
      authorizationNumber && labelUrl
        ? {
            kind: "return-approved",
            authorizationNumber,
            labelUrl: label?.labelUrl ?? labelUrl,
            labelIsPrintout: !label,
            returnAddress: returnAddressLines(config),
          }
        : { kind: "defect-acknowledged" },
    );
  }
  return {
    ok: true,
    message: authorizationNumber
      ? `Return ${number} approved: authorization ${authorizationNumber}, ${label ? `EasyPost label bought (${formatUsd(label.costCents)})` : "printable instructions"}. The customer was emailed.`
      : `Defect claim ${number} acknowledged and passed to the manufacturer's warranty. The customer was emailed.`,
  };
}

/**
 * With EASYPOST_API_KEY, buys the return's prepaid label (customer to warehouse, its lowest rate) and
 * records it: the request's label URL, and an event whose detail carries the cost the refund deducts.
 * Without a key, or when EasyPost fails (logged, written in the history), the printable instructions stay.
 */
async function returnLabelFor(db: Database, config: Config, requestId: string, number: string, actor: string): Promise<ReturnLabel | null> {
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
    await db.update(afterSaleRequests).set({ labelUrl: label.labelUrl, updatedAt: new Date() }).where(eq(afterSaleRequests.id, requestId));
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

/** Declines a requested (or approved, not yet received) request with the reason the customer reads, once. */
export async function declineRequest(
  db: Database,
  config: Config,
  input: { number: string; reason: string; staff: StaffUser },
): Promise<DeskOutcome> {
  const number = normalizeRequestNumber(input.number);
  if (!number) return { ok: false, status: 404, message: "Request not found." };
  const [declined] = await db
    .update(afterSaleRequests)
    .set({ status: "declined", declineReason: input.reason, decidedAt: sql`now()`, updatedAt: new Date() })
    .where(and(eq(afterSaleRequests.number, number), inArray(afterSaleRequests.status, ["requested", "approved"])))
    .returning({ id: afterSaleRequests.id });
  if (!declined) return refusal(db, number, "declined");
  await audit(db, declined.id, input.staff.email, "declined", input.reason);
  const recipient = await emailRequestOf(db, declined.id);
  if (recipient) await sendDeskEmail(db, config, recipient, { kind: "return-declined", reason: input.reason });
  return { ok: true, message: `Request ${number} declined. The customer was emailed the reason.` };
}

/** A refund claim older than this belongs to a process that died mid-refund; the idempotency key keeps a retry single. */
const REFUND_CLAIM_SECONDS = 120;

/**
 * Marks an approved return received and refunds it, once: the request's refund is claimed
 * (`refund_started_at`) before the provider is asked, so a second click or process gets 409 and the
 * provider is called once. The amount may be lowered from the proposed refund, never raised. A refused
 * refund releases the claim (the return stays received, with a Refund button) and shows the reason.
 */
export async function receiveAndRefund(
  db: Database,
  config: Config,
  input: { number: string; amount: string; staff: StaffUser },
): Promise<DeskOutcome> {
  const number = normalizeRequestNumber(input.number);
  const amountCents = parseDollars(input.amount);
  if (!number) return { ok: false, status: 404, message: "Request not found." };
  if (amountCents === null) return { ok: false, status: 400, message: "Enter the refund in dollars and cents, e.g. 84.50." };

  const [claimed] = await db
    .update(afterSaleRequests)
    .set({ refundStartedAt: sql`now()`, updatedAt: new Date() })
    .where(
      and(
        eq(afterSaleRequests.number, number),
        eq(afterSaleRequests.kind, "return"),
        inArray(afterSaleRequests.status, ["approved", "received"]),
        isNull(afterSaleRequests.refundedAt),
        or(
          isNull(afterSaleRequests.refundStartedAt),
          lt(afterSaleRequests.refundStartedAt, sql`now() - make_interval(secs => ${REFUND_CLAIM_SECONDS})`),
        ),
      ),
    )
    .returning();
  if (!claimed) {
    const [row] = await db.select().from(afterSaleRequests).where(eq(afterSaleRequests.number, number));
    if (!row) return { ok: false, status: 404, message: `Request ${number} was not found.` };
    if (row.refundedAt) {
      return {
        ok: false,
        status: 409,
        message: `Return ${number} was already refunded (${formatUsd(row.refundCents ?? 0)}, ${row.refundReference}). Nothing more was refunded.`,
      };
    }
    if (row.refundStartedAt && row.kind === "return") {
      return { ok: false, status: 409, message: `A refund of return ${number} is already under way. Nothing more was refunded.` };
    }
    return refusal(db, number, "marked received");
  }
  const release = () => db.update(afterSaleRequests).set({ refundStartedAt: null }).where(eq(afterSaleRequests.id, claimed.id));
  const actor = input.staff.email;

  try {
    if (claimed.status === "approved") {
      await db
        .update(afterSaleRequests)
        .set({ status: "received", receivedAt: sql`now()`, updatedAt: new Date() })
        .where(eq(afterSaleRequests.id, claimed.id));
      await audit(db, claimed.id, actor, "received");
    }
    const detail = await deskDetail(db, number);
    const payment = await paymentOfOrder(db, claimed.orderId);
    if (!detail?.refund || !payment) {
      await release();
      await audit(db, claimed.id, actor, REFUND_REFUSED, "the order has no payment to refund");
      return { ok: false, status: 409, message: `Order ${claimed.orderId} has no payment the store can refund. Nothing was refunded.` };
    }
    if (amountCents > detail.refund.refundCents) {
      await release();
      return {
        ok: false,
        status: 400,
        message: `The refund can be at most ${formatUsd(detail.refund.refundCents)} (the returned items and their sales tax, less shipping both ways${detail.refund.cappedByPayment ? ", and what the payment still holds" : ""}). Nothing was refunded.`,
      };
    }
    await audit(db, claimed.id, actor, "refund asked", formatUsd(amountCents));

    // The refund and the reversal of the returned lines' tax are recorded together: one refund, one reversal.
    const record = async (refundReference: string) => {
      const reversed = await db.transaction(async (tx) => {
        await tx
          .update(afterSaleRequests)
          .set({
            status: "refunded",
            refundCents: amountCents,
            refundReference,
            refundedAt: sql`now()`,
            refundStartedAt: null,
            updatedAt: new Date(),
          })
          .where(eq(afterSaleRequests.id, claimed.id));
        if (amountCents === 0) return false;
        return recordReturnTaxReversal(tx, {
          orderId: claimed.orderId,
          source: `return:${claimed.id}`,
          reference: `${claimed.orderId}-return-${claimed.number}`,
          lines: detail.lines.map((line) => ({ lineIndex: line.lineIndex, quantity: line.quantity })),
          refundCents: amountCents,
        });
      });
      if (reversed) await queueTaxRecording();
    };
    let reference: string;
    if (amountCents === 0) {
      reference = "nothing to refund";
      await record(reference);
    } else {
      const outcome = await refundPartOfPayment(db, config, payment, {
        amountCents,
        idempotencyKey: await refundKey(db, claimed.id),
        actor,
        record,
      });
      if (!outcome.ok) {
        await release();
        const action = outcome.provider?.said === "unreachable" ? REFUND_FAILED : REFUND_REFUSED;
        await audit(db, claimed.id, actor, action, outcome.provider?.detail ?? outcome.message);
        return { ok: false, status: outcome.status, message: outcome.message };
      }
      reference = outcome.refundReference;
    }
    await audit(db, claimed.id, actor, "refunded", `${formatUsd(amountCents)} (${reference})`);
    const recipient = await emailRequestOf(db, claimed.id);
    if (recipient) {
      await sendDeskEmail(db, config, recipient, {
        kind: "return-refunded",
        amountCents,
        taxCents: Math.min(detail.refund.taxCents, amountCents),
        method: methodName(payment.method),
        isTest: payment.provider === "test",
      });
    }
    return {
      ok: true,
      message: `Return ${number} received and ${formatUsd(amountCents)} refunded (${reference}). The customer was emailed.`,
    };
  } catch (error) {
    await release();
    throw error;
  }
}

const REFUND_REFUSED = "refund refused";
const REFUND_FAILED = "refund failed (provider unreachable)";

/**
 * The idempotency key of this request's refund: derived from its id, so a retry after a lost answer
 * (the provider unreachable, a process that died) is answered with the same refund; after a refusal
 * the provider keeps its "no" for that key (Stripe for 24 hours), and nothing moved, so the next try
 * gets a key of its own.
 */
async function refundKey(db: Database, requestId: string): Promise<string> {
  const [row] = await db
    .select({ refusals: sql<number>`count(*)::int` })
    .from(afterSaleEvents)
    .where(and(eq(afterSaleEvents.requestId, requestId), eq(afterSaleEvents.action, REFUND_REFUSED)));
  const refusals = Number(row?.refusals ?? 0);
  return refusals === 0 ? `return-refund-${requestId}` : `return-refund-${requestId}-${refusals + 1}`;
}

function methodName(method: string): string {
  if (!isPaymentMethod(method)) return "card or account";
  return { card: "card", wallet: "PayPal account", financing: "Affirm loan", "hosted-card": "card" }[PAYMENT_METHODS[method].kind];
}
