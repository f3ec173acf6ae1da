import type { ServiceDeps } from "~/store-runtime";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { publicBaseUrl } from "~/config.server";
import { databaseNow, leaseIsFree } from "~/db/claims.server";
import type { Database } from "~/db/database.server";
import { afterSaleEvents, afterSaleLines, afterSaleRequests, orders, type AfterSaleStatus } from "~/db/schema";
import { restock } from "~/stock/stock.server";
import { queueBackInStock } from "~/stock/back-in-stock.server";
import { audit } from "./desk-events.server";
import { paymentOfOrder } from "~/payments/order-payment.server";
import { refundPartOfPayment } from "~/payments/refunds.server";
import { sendDeskEmail, type DeskEmailRequest } from "~/returns/desk-emails.server";
import { PAYMENT_METHODS, isPaymentMethod } from "~/services/payments/types";
import { queueTaxRecording, recordReturnTaxReversal } from "~/tax/tax-transactions.server";
import { formatUsd } from "~/utils/format";
import { parseDollars, type ReturnRefund } from "./returns-desk";
import { deskDetail, normalizeRequestNumber, returnAddressLines, returnInstructionsPath, type DeskLine } from "./returns-desk.server";
import { newAuthorizationNumber, returnLabelFor } from "./return-label.server";
import type { StaffUser } from "./staff-user";
import type { Refusal } from "~/http/refusals";

/**
 * The returns desk's steps: approve (authorization number and label, or the warranty acknowledgement),
 * decline with a reason, and mark a return received, which refunds its lines (less shipping both ways,
 * with their tax, `returns-desk.ts`) as a partial refund of the order's payment. Each is one conditional
 * update from the status the staff member's page showed, so a double submit, a second process or two
 * different steps at once change nothing twice: one wins, the others get 409. Each writes an audit event
 * and emails the customer once.
 */

export type DeskOutcome = { ok: true; message: string } | { ok: false; refusal: Refusal; message: string };

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

/** Why a step did not move the request: gone, changed since the staff member's page showed it, or in a status that step cannot leave. */
async function refusal(db: Database, number: string, doing: string, seenStatus: AfterSaleStatus): Promise<DeskOutcome & { ok: false }> {
  const [row] = await db.select().from(afterSaleRequests).where(eq(afterSaleRequests.number, number));
  if (!row) return { ok: false, refusal: "not-found", message: `Request ${number} was not found.` };
  if (row.status !== seenStatus) {
    return {
      ok: false,
      refusal: "conflict",
      message: `Request ${number} is ${row.status} now, not ${seenStatus} as this page showed: someone decided it meanwhile. Nothing was changed.`,
    };
  }
  if (row.refundStartedAt && !row.refundedAt) {
    return {
      ok: false,
      refusal: "conflict",
      message: `A refund of request ${number} is under way, so it cannot be ${doing} now. Nothing was changed.`,
    };
  }
  return { ok: false, refusal: "conflict", message: `Request ${number} is ${row.status}, so it cannot be ${doing} now.` };
}

/** No refund of the request is under way (a claim that died keeps it: its provider refund may have gone through). */
const noRefundUnderWay = isNull(afterSaleRequests.refundStartedAt);

/**
 * Approves a requested return (an authorization number and its printable instructions) or defect
 * claim (passed to the manufacturer's warranty), once: the update only moves a request still
 * `requested`, so a second post answers 409 and sends nothing.
 */
export async function approveRequest(
  deps: ServiceDeps,
  input: { number: string; seen: AfterSaleStatus; staff: StaffUser },
): Promise<DeskOutcome> {
  const { db, config } = deps;
  const number = normalizeRequestNumber(input.number);
  if (!number) return { ok: false, refusal: "not-found", message: "Request not found." };
  const [current] = await db
    .select({ id: afterSaleRequests.id, kind: afterSaleRequests.kind })
    .from(afterSaleRequests)
    .where(eq(afterSaleRequests.number, number));
  if (!current) return { ok: false, refusal: "not-found", message: `Request ${number} was not found.` };

  const authorizationNumber = current.kind === "return" ? newAuthorizationNumber() : null;
  const labelUrl = authorizationNumber ? `${publicBaseUrl(config)}${returnInstructionsPath(number, authorizationNumber)}` : null;
  const [approved] = await db
    .update(afterSaleRequests)
    .set({ status: "approved", authorizationNumber, labelUrl, decidedAt: databaseNow, updatedAt: databaseNow })
    .where(and(eq(afterSaleRequests.id, current.id), eq(afterSaleRequests.status, "requested"), eq(afterSaleRequests.status, input.seen)))
    .returning({ id: afterSaleRequests.id });
  if (!approved) return refusal(db, number, "approved", input.seen);

  await audit(db, current.id, input.staff.email, "approved", authorizationNumber ?? "passed to the manufacturer's warranty");
  // Only the post that approved gets here, so at most one label is bought per request.
  const label = authorizationNumber ? await returnLabelFor(db, config, current.id, number, input.staff.email) : null;
  const recipient = await emailRequestOf(db, current.id);
  if (recipient) {
    await sendDeskEmail(
      deps,
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

/** Declines a requested (or approved, not yet received) request with the reason the customer reads, once. */
export async function declineRequest(
  deps: ServiceDeps,
  input: { number: string; seen: AfterSaleStatus; reason: string; staff: StaffUser },
): Promise<DeskOutcome> {
  const { db } = deps;
  const number = normalizeRequestNumber(input.number);
  if (!number) return { ok: false, refusal: "not-found", message: "Request not found." };
  // Never while its refund is under way: a return being received and refunded is decided already.
  const [declined] = await db
    .update(afterSaleRequests)
    .set({ status: "declined", declineReason: input.reason, decidedAt: databaseNow, updatedAt: databaseNow })
    .where(
      and(
        eq(afterSaleRequests.number, number),
        inArray(afterSaleRequests.status, ["requested", "approved"]),
        eq(afterSaleRequests.status, input.seen),
        noRefundUnderWay,
      ),
    )
    .returning({ id: afterSaleRequests.id });
  if (!declined) return refusal(db, number, "declined", input.seen);
  await audit(db, declined.id, input.staff.email, "declined", input.reason);
  const recipient = await emailRequestOf(db, declined.id);
  if (recipient) await sendDeskEmail(deps, recipient, { kind: "return-declined", reason: input.reason });
  return { ok: true, message: `Request ${number} declined. The customer was emailed the reason.` };
}

/** A refund claim older than this belongs to a process that died mid-refund; the idempotency key keeps a retry single. */
const REFUND_CLAIM_SECONDS = 120;

/**
 * Marks an approved return received and refunds it, once, as one decision: the amount is checked against
 * the proposed refund before anything changes, then the request is claimed (`refund_started_at`) from the
 * status the staff member saw, so a second click, a second process or a decline at the same moment gets
 * 409 and the provider is called once. The request becomes received only together with its refund: a
 * refused refund releases the claim and leaves it approved, with the reason shown.
 */
export async function receiveAndRefund(
  deps: ServiceDeps,
  input: { number: string; seen: AfterSaleStatus; amount: string; damaged?: boolean; staff: StaffUser },
): Promise<DeskOutcome> {
  const { db } = deps;
  const number = normalizeRequestNumber(input.number);
  const amountCents = parseDollars(input.amount);
  if (!number) return { ok: false, refusal: "not-found", message: "Request not found." };
  if (amountCents === null) return { ok: false, refusal: "invalid", message: "Enter the refund in dollars and cents, e.g. 84.50." };
  const before = await deskDetail(db, number);
  if (!before) return { ok: false, refusal: "not-found", message: `Request ${number} was not found.` };
  if (before.status !== input.seen || !before.refund) return receiveRefusal(db, number, input.seen);
  // Another desk's refund moving the same money shrinks what is left to refund: that one is the answer, not "too much".
  if (amountCents > before.refund.refundCents) return (await refundElsewhere(db, number)) ?? tooMuch(before.refund);

  const [claimed] = await db
    .update(afterSaleRequests)
    .set({ refundStartedAt: databaseNow, updatedAt: databaseNow })
    .where(
      and(
        eq(afterSaleRequests.number, number),
        eq(afterSaleRequests.kind, "return"),
        inArray(afterSaleRequests.status, ["approved", "received"]),
        eq(afterSaleRequests.status, input.seen),
        isNull(afterSaleRequests.refundedAt),
        leaseIsFree(afterSaleRequests.refundStartedAt, REFUND_CLAIM_SECONDS),
      ),
    )
    .returning();
  if (!claimed) return receiveRefusal(db, number, input.seen);
  const release = () => db.update(afterSaleRequests).set({ refundStartedAt: null }).where(eq(afterSaleRequests.id, claimed.id));
  try {
    return await refundClaimed(deps, claimed, {
      number,
      amountCents,
      actor: input.staff.email,
      damaged: input.damaged ?? false,
      release,
    });
  } catch (error) {
    await release();
    throw error;
  }
}

/** Why a receive did not start: refunded already, under way, decided since the page was opened, or not a return that can be. */
async function receiveRefusal(db: Database, number: string, seenStatus: AfterSaleStatus): Promise<DeskOutcome & { ok: false }> {
  const elsewhere = await refundElsewhere(db, number);
  if (elsewhere) return elsewhere;
  const [row] = await db.select().from(afterSaleRequests).where(eq(afterSaleRequests.number, number));
  if (row && row.status === seenStatus && ["approved", "received"].includes(row.status)) {
    return { ok: false, refusal: "conflict", message: `Order ${row.orderId} has no payment the store can refund. Nothing was refunded.` };
  }
  return refusal(db, number, "marked received", seenStatus);
}

/** The return's refund, done or under way at another desk (409), or null. */
async function refundElsewhere(db: Database, number: string): Promise<(DeskOutcome & { ok: false }) | null> {
  const [row] = await db.select().from(afterSaleRequests).where(eq(afterSaleRequests.number, number));
  if (row?.refundedAt) {
    return {
      ok: false,
      refusal: "conflict",
      message: `Return ${number} was already refunded (${formatUsd(row.refundCents ?? 0)}, ${row.refundReference}). Nothing more was refunded.`,
    };
  }
  if (row?.refundStartedAt && row.kind === "return") {
    return { ok: false, refusal: "conflict", message: `A refund of return ${number} is already under way. Nothing more was refunded.` };
  }
  return null;
}

function tooMuch(refund: ReturnRefund): DeskOutcome & { ok: false } {
  const limits = `the returned items and their sales tax, less shipping both ways${refund.cappedByPayment ? ", and what the payment still holds" : ""}`;
  return {
    ok: false,
    refusal: "invalid",
    message: `The refund can be at most ${formatUsd(refund.refundCents)} (${limits}). Nothing was refunded.`,
  };
}

type ClaimedRequest = typeof afterSaleRequests.$inferSelect;

/** The claimed return's refund: checked again under the claim, given back through the provider, recorded with its receipt. */
async function refundClaimed(
  deps: ServiceDeps,
  claimed: ClaimedRequest,
  {
    number,
    amountCents,
    actor,
    damaged,
    release,
  }: { number: string; amountCents: number; actor: string; damaged: boolean; release: () => Promise<unknown> },
): Promise<DeskOutcome> {
  const { db } = deps;
  // Under the claim, what the payment still holds cannot change: the amount is checked once more against it.
  const detail = await deskDetail(db, number);
  const payment = await paymentOfOrder(db, claimed.orderId);
  if (!detail?.refund || !payment) {
    await release();
    await audit(db, claimed.id, actor, REFUND_REFUSED, "the order has no payment to refund");
    return {
      ok: false,
      refusal: "conflict",
      message: `Order ${claimed.orderId} has no payment the store can refund. Nothing was refunded.`,
    };
  }
  if (amountCents > detail.refund.refundCents) {
    await release();
    return tooMuch(detail.refund);
  }
  await audit(db, claimed.id, actor, "refund asked", formatUsd(amountCents));
  const record = (refundReference: string) =>
    recordRefund(deps, claimed, { amountCents, refundReference, actor, damaged, lines: detail.lines });
  let reference: string;
  if (amountCents === 0) {
    reference = "nothing to refund";
    await record(reference);
  } else {
    const outcome = await refundPartOfPayment(deps, payment, {
      amountCents,
      idempotencyKey: await refundKey(db, claimed.id),
      actor,
      record,
    });
    if (!outcome.ok) {
      await release();
      const action = outcome.provider?.said === "unreachable" ? REFUND_FAILED : REFUND_REFUSED;
      await audit(db, claimed.id, actor, action, outcome.provider?.detail ?? outcome.message);
      return { ok: false, refusal: outcome.refusal, message: outcome.message };
    }
    reference = outcome.refundReference;
  }
  await audit(db, claimed.id, actor, "refunded", `${formatUsd(amountCents)} (${reference})`);
  const recipient = await emailRequestOf(db, claimed.id);
  if (recipient) {
    await sendDeskEmail(deps, recipient, {
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
}

/**
 * The return received and refunded, in one transaction with the reversal of the returned lines' tax and
 * their units back on the shelf (unless staff marked them damaged): it is marked received only now, with
 * the refund it was accepted with, and only while its claim holds.
 */
async function recordRefund(
  { db, jobs }: Pick<ServiceDeps, "db" | "jobs">,
  claimed: ClaimedRequest,
  input: { amountCents: number; refundReference: string; actor: string; damaged: boolean; lines: DeskLine[] },
): Promise<void> {
  let backInStock: string[] = [];
  const reversed = await db.transaction(async (tx) => {
    await tx
      .update(afterSaleRequests)
      .set({
        status: "refunded",
        receivedAt: sql`coalesce(${afterSaleRequests.receivedAt}, now())`,
        refundCents: input.amountCents,
        refundReference: input.refundReference,
        refundedAt: databaseNow,
        refundStartedAt: null,
        updatedAt: databaseNow,
      })
      .where(eq(afterSaleRequests.id, claimed.id));
    if (claimed.status === "approved")
      await audit(tx, claimed.id, input.actor, input.damaged ? "received (damaged: not put back on sale)" : "received");
    if (!input.damaged) backInStock = await restockReturn(tx, claimed, input.actor);
    if (input.amountCents === 0) return false;
    return recordReturnTaxReversal(tx, {
      orderId: claimed.orderId,
      source: `return:${claimed.id}`,
      reference: `${claimed.orderId}-return-${claimed.number}`,
      lines: input.lines.map((line) => ({ lineIndex: line.lineIndex, quantity: line.quantity })),
      refundCents: input.amountCents,
    });
  });
  if (reversed) await queueTaxRecording(jobs);
  await queueBackInStock(jobs, backInStock);
}

/** A received return's units, back on the shelf once (its request is the cause). */
async function restockReturn(tx: Parameters<typeof restock>[0], claimed: ClaimedRequest, actor: string): Promise<string[]> {
  const lines = await tx
    .select({ productKey: afterSaleLines.productKey, quantity: afterSaleLines.quantity })
    .from(afterSaleLines)
    .where(eq(afterSaleLines.requestId, claimed.id));
  return restock(tx, {
    lines,
    reason: `return ${claimed.number} received`,
    actor,
    orderId: claimed.orderId,
    source: `return:${claimed.id}`,
  });
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
