import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { paymentAttempts, type PaymentAttemptStatus } from "~/db/schema";
import { generateToken } from "~/orders/order-id";
import type { PaymentMethod, PaymentProviderId } from "~/services/payments/types";

export type PaymentAttempt = typeof paymentAttempts.$inferSelect;

/** Attempt ids travel in return URLs: random, and checked for shape before any query. */
const ATTEMPT_ID = /^pa_[A-Za-z0-9]{10,64}$/;

export async function createAttempt(
  db: Database,
  values: { checkoutToken: string; method: PaymentMethod; provider: PaymentProviderId; amountCents: number },
): Promise<PaymentAttempt> {
  const [attempt] = await db
    .insert(paymentAttempts)
    .values({ id: `pa_${generateToken()}`, ...values })
    .returning();
  return attempt;
}

export async function setAttemptReference(db: Database, id: string, reference: string): Promise<void> {
  await db.update(paymentAttempts).set({ reference, updatedAt: new Date() }).where(eq(paymentAttempts.id, id));
}

export async function setAttemptStatus(db: Database, id: string, status: PaymentAttemptStatus, message: string | null = null) {
  await db.update(paymentAttempts).set({ status, message, updatedAt: new Date() }).where(eq(paymentAttempts.id, id));
}

export async function getAttempt(db: Database, id: string): Promise<PaymentAttempt | null> {
  if (!ATTEMPT_ID.test(id)) return null;
  const [attempt] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id));
  return attempt ?? null;
}

/** The attempt a provider's reference belongs to (webhooks and return pages that only carry the provider's id). */
export async function findAttemptByReference(db: Database, provider: PaymentProviderId, reference: string): Promise<PaymentAttempt | null> {
  if (reference.length === 0 || reference.length > 255) return null;
  const [attempt] = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.provider, provider), eq(paymentAttempts.reference, reference)));
  return attempt ?? null;
}
