import type { StoreRuntime } from "~/store-runtime";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCheckout } from "~/checkout/checkout.server";
import { singleCheckoutAction } from "~/checkout/single-checkout.server";
import { parseConfig } from "~/config.server";
import { products, promoRedemptions } from "~/db/schema";
import { confirmPayment } from "~/payments/confirm-payment.server";
import { startPayment } from "~/payments/start-payment.server";
import { PROMO_ALREADY_USED_MESSAGE } from "~/pricing/promo-redemptions.server";
import { decideTestPayment } from "~/services/payments/test-payments.server";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { postRequest, TEST_ORIGIN, testRuntime, storeOf } from "../support/test-runtime";

let runtime: StoreRuntime;

/** The spec's contradictions resolved for the shopper, and the pending checkout's details. */

const customer = checkoutCustomer();

type FormAnswer = {
  data: {
    promoMessage: string | null;
    shippingKnown: boolean;
    totals: { shippingCents: number; discountCents: number; totalCents: number };
  };
  init: { status?: number } | null;
};

describe.each(testDatabaseKinds())("spec conformance on %s", (kind) => {
  let database: TestDatabase;
  const config = parseConfig({ PUBLIC_BASE_URL: TEST_ORIGIN });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    runtime = testRuntime(database);
    await database.db
      .insert(products)
      .values([
        testProduct("blaze-big", 249_999),
        testProduct("primo-tongs", 2500, { specifications: [{ Width: '4"' }, { Depth: '16"' }, { Height: '2"' }, { Weight: "1 lbs" }] }),
        testProduct("primo-nosize", 2500),
        testProduct("custom_product-LOVE-RUB-001", 1599),
      ]);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  let visitor = 0;
  /** Each post from its own address, so the shipping-quote rate limit does not decide these tests. */
  const submit = (path: string, kindOf: "single" | "seasoning", fields: Record<string, string | number>) =>
    singleCheckoutAction(runtime, postRequest(path, fields), kindOf, `198.51.100.${(visitor += 1) % 250}`);

  async function payAndConfirm(checkoutToken: string) {
    const checkout = (await getCheckout(database.db, checkoutToken))!;
    const started = await startPayment(storeOf(database.db, config), { checkout, method: "stripe" });
    if (started.status !== "started") throw new Error(`payment not started: ${started.status}`);
    await decideTestPayment(database.db, started.payment.reference, "approved");
    const outcome = await confirmPayment(storeOf(database.db, config), { method: "stripe", checkoutToken, attemptId: started.attemptId });
    expect(outcome.status).toBe("paid");
  }

  function tokenOf(response: unknown): string {
    expect(response).toBeInstanceOf(Response);
    return new URL((response as Response).headers.get("Location")!, TEST_ORIGIN).searchParams.get("checkout")!;
  }

  describe("BUY NOW shipping", () => {
    it("is free for a product above $49, whatever the quantity", async () => {
      for (const quantity of [1, 2]) {
        const token = tokenOf(
          await submit("/single-product-checkout", "single", { intent: "pay", product: "blaze-big", quantity, ...customer }),
        );
        expect(await getCheckout(database.db, token)).toMatchObject({ shippingCents: 0, totalCents: 249_999 * quantity });
      }
    });

    it("quotes the carrier with the product's own parcel below $49, or the stated default box", async () => {
      const sized = (await submit("/single-product-checkout", "single", {
        intent: "update",
        product: "primo-tongs",
        quantity: 1,
        ...customer,
      })) as FormAnswer;
      const unsized = (await submit("/single-product-checkout", "single", {
        intent: "update",
        product: "primo-nosize",
        quantity: 1,
        ...customer,
      })) as FormAnswer;
      expect(sized.data.shippingKnown).toBe(true);
      expect(sized.data.totals.shippingCents).toBeGreaterThan(0);
      expect(sized.data.totals.shippingCents).not.toBe(699);
      // A 1 lb box of tongs costs less to send than the 5 lb default box.
      expect(sized.data.totals.shippingCents).toBeLessThan(unsized.data.totals.shippingCents);
    });

    it("keeps $6.99 for one jar of the seasoning", async () => {
      const answer = (await submit("/custom-product-checkout", "seasoning", { intent: "update", quantity: 1 })) as FormAnswer;
      expect(answer.data.totals.shippingCents).toBe(699);
    });
  });

  describe("LOVERUB10 once per customer email", () => {
    const rub = { intent: "pay", quantity: 1, promoCode: "LOVERUB10" };

    it("takes the code on the first purchase and refuses it before payment on the second", async () => {
      const email = "first-time@example.com";
      const token = tokenOf(await submit("/custom-product-checkout", "seasoning", { ...rub, ...customer, email }));
      expect((await getCheckout(database.db, token))?.discountCents).toBe(160);
      await payAndConfirm(token);
      expect(await database.db.select().from(promoRedemptions).where(eq(promoRedemptions.email, email))).toHaveLength(1);

      const again = (await submit("/custom-product-checkout", "seasoning", {
        ...rub,
        ...customer,
        email: "First-Time@Example.com",
      })) as FormAnswer;
      expect(again.init?.status).toBe(400);
      expect(again.data.promoMessage).toBe(PROMO_ALREADY_USED_MESSAGE);
      expect(again.data.totals.discountCents).toBe(0);
      // Without the code the same shopper can buy.
      tokenOf(await submit("/custom-product-checkout", "seasoning", { ...rub, promoCode: "", ...customer, email }));
      // Another email still gets its first-purchase discount.
      tokenOf(await submit("/custom-product-checkout", "seasoning", { ...rub, ...customer, email: "someone-else@example.com" }));
    });

    it("lets only one of two pending checkouts with the code start a payment", async () => {
      const email = "twice@example.com";
      const first = tokenOf(await submit("/custom-product-checkout", "seasoning", { ...rub, ...customer, email }));
      const second = tokenOf(await submit("/custom-product-checkout", "seasoning", { ...rub, ...customer, email }));
      await payAndConfirm(first);
      // The code is reserved for the email before any payment: the second checkout cannot be charged for it.
      const checkout = (await getCheckout(database.db, second))!;
      expect((await startPayment(storeOf(database.db, config), { checkout, method: "stripe" })).status).toBe("promo-used");
      expect(await database.db.select().from(promoRedemptions).where(eq(promoRedemptions.email, email))).toHaveLength(1);
    });
  });
});
