import { and, desc, eq, ilike, like, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/database.server";
import type { ServiceDeps } from "~/store-runtime";
import { ORDER_STATUSES, orderStatusChanges, orders, type OrderCustomer, type OrderItem, type OrderStatus } from "~/db/schema";
import { paymentOfOrder, refundOfOrder, type OrderRefund } from "~/payments/order-payment.server";
import { normalizeOrderId } from "~/orders/order-id";
import { shipmentOf, type Shipment } from "~/orders/shipping";
import {
  queueTaxRecording,
  recordFullTaxReversal,
  taxReversedByCancel,
  taxTransactionsOf,
  type TaxTransaction,
} from "~/tax/tax-transactions.server";
import { orderTaxNoteOf } from "~/tax/tax-note.server";
import type { RecordedJurisdiction } from "~/tax/recorded-tax";
import { restock, shortageText, StockGone, takeStock } from "~/stock/stock.server";
import { queueBackInStock } from "~/stock/back-in-stock.server";

export const PAGE_SIZE = 50;
/** Deep pages cost an index walk of page × PAGE_SIZE rows; nobody pages this far by hand. */
export const MAX_PAGE = 2000;
export const MAX_QUERY_LENGTH = 100;

export const statusSchema = z.enum(ORDER_STATUSES);

export interface DashboardTiles {
  total: number;
  approved: number;
  packed: number;
  shipped: number;
  /** Orders paid on the offline test payment page, where no money moved: also in the counts above, and shown apart. */
  test: number;
}

/**
 * The four tiles in one pass over the orders: every order in the database
 * counts in the total (Cancelled ones only there).
 */
export async function dashboardTiles(db: Database): Promise<DashboardTiles> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      approved: sql<number>`(count(*) filter (where ${orders.status} = 'Approved'))::int`,
      packed: sql<number>`(count(*) filter (where ${orders.status} = 'Packed'))::int`,
      shipped: sql<number>`(count(*) filter (where ${orders.status} = 'Shipped'))::int`,
      test: sql<number>`(count(*) filter (where ${orders.paymentProvider} = 'test'))::int`,
    })
    .from(orders);
  return {
    total: Number(row.total),
    approved: Number(row.approved),
    packed: Number(row.packed),
    shipped: Number(row.shipped),
    test: Number(row.test),
  };
}

export interface OrderRow {
  orderId: string;
  name: string;
  email: string;
  status: OrderStatus;
  totalCents: number;
  createdAt: Date;
}

export interface OrderListPage {
  rows: OrderRow[];
  page: number;
  hasNext: boolean;
}

/** Must stay the same expression as the predicate of orders_listed_created_at_idx. */
const customerName = sql<string>`(${orders.customer}->>'name')`;
const customerEmail = sql<string>`(${orders.customer}->>'email')`;
const hasCustomerName = sql`btrim(${orders.customer}->>'name') <> ''`;

/** `%`, `_` and `\` typed by staff match themselves, not anything. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export function normalizeQuery(value: unknown): string {
  return typeof value === "string" ? value.trim().slice(0, MAX_QUERY_LENGTH) : "";
}

export function parsePage(value: unknown): number {
  const page = Number.parseInt(typeof value === "string" ? value : "", 10);
  return Number.isFinite(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1;
}

function searchCondition(query: string): SQL | undefined {
  if (!query) return undefined;
  const pattern = `%${escapeLike(query)}%`;
  const conditions: SQL[] = [ilike(customerName, pattern), ilike(customerEmail, pattern)];
  const id = normalizeOrderId(query);
  if (/^[A-Z0-9]+$/.test(id)) conditions.push(like(orders.orderId, `${id}%`));
  return or(...conditions);
}

/**
 * One page of orders with a customer name, newest first: PAGE_SIZE rows by
 * offset, plus one to know whether a next page exists (no count of the whole
 * list). A query matches an order id prefix, or part of the name or email.
 */
export async function listOrders(db: Database, options: { query?: string; page?: number } = {}): Promise<OrderListPage> {
  const page = Math.min(Math.max(1, options.page ?? 1), MAX_PAGE);
  const query = normalizeQuery(options.query);
  const rows = await db
    .select({
      orderId: orders.orderId,
      name: customerName,
      email: customerEmail,
      status: orders.status,
      totalCents: orders.totalCents,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(and(hasCustomerName, searchCondition(query)))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(PAGE_SIZE + 1)
    .offset((page - 1) * PAGE_SIZE);
  return {
    rows: rows.slice(0, PAGE_SIZE).map((row) => ({ ...row, name: row.name ?? "", email: row.email ?? "" })),
    page,
    hasNext: rows.length > PAGE_SIZE,
  };
}

export interface StatusChange {
  staffEmail: string;
  fromStatus: OrderStatus;
  toStatus: OrderStatus;
  changedAt: Date;
}

export interface OrderDetail {
  orderId: string;
  status: OrderStatus;
  createdAt: Date;
  customer: OrderCustomer;
  items: OrderItem[];
  subtotalCents: number;
  shippingCents: number;
  discountCents: number;
  taxCents: number;
  /** How the tax was worked out, and what became of its transaction at the provider. */
  tax: OrderTaxView;
  totalCents: number;
  paymentMethod: string;
  /** "test" when the order was paid on the offline test page (no money moved). */
  paymentProvider: string;
  /** The order's payment given back, if it was. */
  refund: OrderRefund | null;
  /** Carrier, tracking number and delivery date, once the order has shipped. */
  shipment: Shipment | null;
  shippedAt: Date | null;
  history: StatusChange[];
}

export interface OrderTaxView {
  note: string | null;
  provider: string | null;
  calculationId: string | null;
  jurisdictions: RecordedJurisdiction[];
  shippingTaxCents: number;
  /** The commit and each reversal: what moved, and whether the provider has it yet. */
  transactions: Pick<
    TaxTransaction,
    "kind" | "reference" | "taxCents" | "status" | "attempts" | "lastError" | "recordedAt" | "providerTransactionId"
  >[];
}

/** Everything staff see in the side panel, with the audit trail newest first; null when unknown. */
export async function orderDetail(db: Database, orderIdInput: string): Promise<OrderDetail | null> {
  const orderId = normalizeOrderId(orderIdInput);
  if (!/^[A-Z0-9]{1,40}$/.test(orderId)) return null;
  const [order] = await db.select().from(orders).where(eq(orders.orderId, orderId));
  if (!order) return null;
  const history = await db
    .select({
      staffEmail: orderStatusChanges.staffEmail,
      fromStatus: orderStatusChanges.fromStatus,
      toStatus: orderStatusChanges.toStatus,
      changedAt: orderStatusChanges.changedAt,
    })
    .from(orderStatusChanges)
    .where(eq(orderStatusChanges.orderId, orderId))
    .orderBy(desc(orderStatusChanges.changedAt), desc(orderStatusChanges.id));
  return {
    orderId: order.orderId,
    status: order.status,
    createdAt: order.createdAt,
    customer: order.customer,
    items: order.items,
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCents,
    discountCents: order.discountCents,
    taxCents: order.taxCents,
    tax: {
      note: orderTaxNoteOf(order),
      provider: order.tax?.provider ?? null,
      calculationId: order.tax?.calculationId ?? null,
      jurisdictions: order.tax?.jurisdictions ?? [],
      shippingTaxCents: order.tax?.shippingTaxCents ?? 0,
      transactions: await taxTransactionsOf(db, order.orderId),
    },
    totalCents: order.totalCents,
    paymentMethod: order.paymentMethod,
    paymentProvider: order.paymentProvider,
    refund: await refundOfOrder(db, order.orderId),
    shipment: shipmentOf(order),
    shippedAt: order.shippedAt,
    history,
  };
}

/** Who carries the parcel: checked by shipmentSchema (app/staff/dashboard-form.server.ts) before it gets here. */
export interface ShipmentInput {
  carrier: string;
  trackingNumber: string;
}

export type UpdateStatusResult =
  | {
      ok: true;
      changed: boolean;
      from: OrderStatus;
      to: OrderStatus;
      /** Shipped: "recorded" with the status change, "corrected" when a shipped order's carrier or number changed. */
      shipment: "recorded" | "corrected" | null;
    }
  | { ok: false; reason: "invalid-status" | "not-found" | "refunded" | "test-cancelled" | "shipment-required" }
  /** Set back from Cancelled, its units are no longer there: `message` says which. */
  | { ok: false; reason: "out-of-stock"; message: string };

/**
 * Sets an order's status (any of the four, in any order) and records who
 * changed it from what to what, in one transaction. Setting the status it
 * already has changes nothing and records nothing; a cancelled order whose
 * payment was refunded stays cancelled, and so does a cancelled test-page order, whose cancellation gave
 * its tax back (no money moved, so no refund ever will). Shipped takes the carrier and the
 * tracking number, stored with it (a shipped order's number may be corrected
 * by posting Shipped again); another status keeps them, and the delivery date.
 */
export async function updateOrderStatus(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  input: { orderId: string; status: unknown; staff: { email: string }; shipment?: ShipmentInput | null },
): Promise<UpdateStatusResult> {
  const status = statusSchema.safeParse(input.status);
  if (!status.success) return { ok: false, reason: "invalid-status" };
  const orderId = normalizeOrderId(input.orderId);
  if (!/^[A-Z0-9]{1,40}$/.test(orderId)) return { ok: false, reason: "not-found" };
  const shipment = status.data === "Shipped" ? input.shipment : null;
  if (status.data === "Shipped" && !shipment) return { ok: false, reason: "shipment-required" };
  const result = await db
    .transaction(async (tx) => {
      const [current] = await tx
        .select({
          status: orders.status,
          carrier: orders.carrier,
          trackingNumber: orders.trackingNumber,
          paymentProvider: orders.paymentProvider,
          items: orders.items,
          shippedAt: orders.shippedAt,
        })
        .from(orders)
        .where(eq(orders.orderId, orderId))
        .for("update");
      if (!current) return { ok: false, reason: "not-found" } as const;
      const from = current.status;
      const to = status.data;
      const sameParcel = !shipment || (current.carrier === shipment.carrier && current.trackingNumber === shipment.trackingNumber);
      if (from === to && sameParcel) return { ok: true, changed: false, from, to, shipment: null } as const;
      if (from === "Cancelled" && (await paymentOfOrder(tx, orderId))?.refundedAt) return { ok: false, reason: "refunded" } as const;
      if (from === "Cancelled" && (await taxReversedByCancel(tx, orderId))) return { ok: false, reason: "test-cancelled" } as const;
      await tx
        .update(orders)
        .set({
          status: to,
          updatedAt: sql`now()`,
          ...(shipment
            ? {
                carrier: shipment.carrier,
                trackingNumber: shipment.trackingNumber,
                shippedAt: sql`coalesce(${orders.shippedAt}, now())`,
                // Another parcel: EasyPost's tracker of the old number no longer applies.
                ...(sameParcel ? {} : { trackerId: null }),
              }
            : {}),
        })
        .where(eq(orders.orderId, orderId));
      const [change] =
        from === to
          ? []
          : await tx
              .insert(orderStatusChanges)
              .values({ orderId, staffEmail: input.staff.email, fromStatus: from, toStatus: to })
              .returning({ id: orderStatusChanges.id });
      // An order that never shipped gives its units back when cancelled, and takes them again when set back.
      const backInStock =
        change && !current.shippedAt
          ? await moveStockWithStatus(tx, { orderId, from, to, items: current.items, actor: input.staff.email, changeId: change.id })
          : [];
      // A test-page order moved no money, so its cancellation is where its tax goes back.
      const taxReversed =
        to === "Cancelled" &&
        current.paymentProvider === "test" &&
        (await recordFullTaxReversal(tx, { orderId, source: `cancel:${orderId}`, reference: `${orderId}-cancel` }));
      const recorded = shipment ? (from === "Shipped" && to === "Shipped" ? "corrected" : "recorded") : null;
      return { ok: true, changed: true, from, to, shipment: recorded, taxReversed, backInStock } as const;
    })
    .catch((error: unknown) => {
      if (error instanceof StockGone) return { ok: false, reason: "out-of-stock", message: shortageText(error.shortages) } as const;
      throw error;
    });
  if (result.ok && "taxReversed" in result) {
    if (result.taxReversed) await queueTaxRecording(jobs);
    await queueBackInStock(jobs, result.backInStock ?? []);
  }
  return result;
}

/** A cancellation puts the order's units back on the shelf; setting a cancelled order live again takes them (StockGone when gone). */
async function moveStockWithStatus(
  tx: Parameters<typeof restock>[0],
  input: { orderId: string; from: OrderStatus; to: OrderStatus; items: OrderItem[]; actor: string; changeId: number },
): Promise<string[]> {
  const lines = input.items.map((item) => ({ productKey: item.productKey, quantity: item.quantity, title: item.title }));
  if (input.to === "Cancelled") {
    return restock(tx, {
      lines,
      reason: "order cancelled",
      actor: input.actor,
      orderId: input.orderId,
      source: `cancel:${input.orderId}:${input.changeId}`,
    });
  }
  if (input.from === "Cancelled") {
    await takeStock(tx, {
      lines,
      reason: "order set back to " + input.to,
      actor: input.actor,
      orderId: input.orderId,
      source: `reinstate:${input.orderId}:${input.changeId}`,
    });
  }
  return [];
}
