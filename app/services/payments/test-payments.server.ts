import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { testPayments } from "~/db/schema";
import type { PaymentMethod, PaymentProvider, PaymentVerification } from "./types";
import { PAYMENT_CURRENCY } from "./types";

export const TEST_PAYMENT_NAME = "test payment page (offline stand-in, no money moves)";
export const TEST_DECLINE_MESSAGE = "Your card was declined (test payment page).";

/**
 * The offline payment stand-in: a payment page of our own (/test-payment/{id})
 * where a person approves or declines. Its state lives in the test_payments
 * table, so verification is still a server-side look-up, as with a real provider.
 * The test page's id is the payment attempt's own id.
 */
export function createTestPaymentProvider(db: Database, method: PaymentMethod): PaymentProvider {
  return {
    id: "test",
    method,
    name: TEST_PAYMENT_NAME,
    isStandIn: true,
    async startPayment({ attemptId, checkoutToken, amountCents }) {
      const id = `tp_${attemptId}`;
      await db.insert(testPayments).values({ id, checkoutToken, method, amountCents });
      return { redirectUrl: `/test-payment/${id}`, reference: id };
    },
    async verifyPayment({ reference }): Promise<PaymentVerification> {
      const payment = await getTestPayment(db, reference);
      if (!payment || payment.method !== method) return { status: "declined", reference, message: "Unknown payment." };
      if (payment.status === "approved") {
        return { status: "approved", reference, amountCents: payment.amountCents, currency: PAYMENT_CURRENCY };
      }
      if (payment.status === "declined") return { status: "declined", reference, message: payment.message ?? TEST_DECLINE_MESSAGE };
      return { status: "pending", reference };
    },
    /** The test page can no longer approve a payment the shopper gave up. */
    async cancelPayment({ reference }) {
      await decideTestPayment(db, reference, "declined");
    },
    /** No money moved: the refund is only recorded. */
    async refundPayment({ reference, part }) {
      return { status: "refunded", refundReference: part ? `test-refund-${part.idempotencyKey}` : `test-refund-${reference}` };
    },
  };
}

/** A test payment's id is `tp_` and its attempt's id; anything else names none (a NUL would make PostgreSQL throw). */
const TEST_PAYMENT_ID = /^tp_[A-Za-z0-9_-]{1,80}$/;

export async function getTestPayment(db: Database, id: string) {
  if (!TEST_PAYMENT_ID.test(id)) return null;
  const [payment] = await db.select().from(testPayments).where(eq(testPayments.id, id));
  return payment ?? null;
}

/** The person's decision on the test page; only a pending payment can change. */
export async function decideTestPayment(db: Database, id: string, decision: "approved" | "declined") {
  if (!TEST_PAYMENT_ID.test(id)) return null;
  const [payment] = await db
    .update(testPayments)
    .set({ status: decision, message: decision === "declined" ? TEST_DECLINE_MESSAGE : null })
    .where(and(eq(testPayments.id, id), eq(testPayments.status, "pending")))
    .returning();
  return payment ?? null;
}
