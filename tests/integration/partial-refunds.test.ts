import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCartCheckout, type Checkout } from "~/checkout/checkout.server";
import { parseConfig } from "~/config.server";
import { paymentAttempts, products } from "~/db/schema";
import { confirmPayment } from "~/payments/confirm-payment.server";
import { captureOrderPayment } from "~/payments/order-payment.server";
import { startPayment } from "~/payments/start-payment.server";
import { createAuthorizeNetFromConfig } from "~/services/payments/authorize-net.server";
import { fakeAffirmSettings, startFakeAffirm, type FakeAffirm } from "../fakes/affirm";
import { fakeAuthorizeNetSettings, startFakeAuthorizeNet, type FakeAuthorizeNet } from "../fakes/authorize-net";
import { checkoutCustomer, testProduct } from "../support/shopping-fixtures";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, storeOf } from "../support/test-runtime";
import { paymentProvidersFor } from "~/services/payments/index.server";

/**
 * A part of a payment (a returned item) through Affirm's and Authorize.Net's drivers: an exact amount,
 * never a void, and refused where the provider cannot give part of it back yet. Stripe and PayPal are
 * in tests/integration/returns-desk.test.ts.
 */
describe.each(testDatabaseKinds())("partial refunds through Affirm and Authorize.Net on %s", (kind) => {
  let database: TestDatabase;
  let anet: FakeAuthorizeNet;
  let affirm: FakeAffirm;
  let env: Record<string, string>;
  const customer = checkoutCustomer({ email: "ada.partial@example.com" });
  const config = () => parseConfig(env);

  beforeAll(async () => {
    anet = await startFakeAuthorizeNet();
    affirm = await startFakeAffirm();
    env = { PUBLIC_BASE_URL: TEST_ORIGIN, ...fakeAuthorizeNetSettings(anet), ...fakeAffirmSettings(affirm) };
    database = await createTestDatabase(kind);
    await database.db.insert(products).values(testProduct("blaze-7001", 10_000));
  });
  afterAll(async () => {
    await database?.dispose();
    await anet?.close();
    await affirm?.close();
  });
  beforeEach(() => {
    anet.reset();
    affirm.reset();
  });

  const newCheckout = (): Promise<Checkout> =>
    createCartCheckout(storeOf(database.db), [{ productKey: "blaze-7001", quantity: 1 }], customer);

  it("Authorize.Net refuses part of an unsettled payment (a void would give back all of it) and refunds part of a settled one", async () => {
    const provider = createAuthorizeNetFromConfig(config());
    const checkout = await newCheckout();
    const started = await startPayment(storeOf(database.db, config()), { checkout, method: "authorizenet" });
    if (started.status !== "started") throw new Error(started.status);
    const paid = anet.submitHostedForm(started.payment.clientData!.token!, "pay");
    const part = {
      attemptId: started.attemptId,
      reference: started.payment.reference,
      paymentId: started.payment.reference,
      amountCents: 2_500,
      part: { idempotencyKey: "return-refund-anet" },
    };
    expect(await provider.refundPayment!(part)).toMatchObject({ status: "refused", message: expect.stringMatching(/once it has settled/) });
    expect(anet.apiCalls().filter((item) => item.name === "createTransactionRequest")).toHaveLength(0);

    anet.settle();
    expect(await provider.refundPayment!(part)).toMatchObject({ status: "refunded" });
    const call = anet.apiCalls().find((item) => item.name === "createTransactionRequest")!;
    expect(call.body.transactionRequest).toMatchObject({ transactionType: "refundTransaction", refTransId: paid.transId, amount: "25.00" });
  });

  it("Affirm refunds part of a captured loan under the part's key, then the rest, and refuses part of an uncaptured one", async () => {
    const checkout = await newCheckout();
    const started = await startPayment(storeOf(database.db, config()), { checkout, method: "affirm" });
    if (started.status !== "started") throw new Error(started.status);
    const token = started.payment.reference;
    affirm.confirm(token);
    const paid = await confirmPayment(storeOf(database.db, config()), {
      method: "affirm",
      checkoutToken: checkout.token,
      attemptId: started.attemptId,
      returnParams: new URLSearchParams({ affirm_token: token }),
    });
    if (paid.status !== "paid") throw new Error(paid.status);
    const transactionId = affirm.checkouts.get(token)!.transactionId!;
    const provider = paymentProvidersFor(config(), database.db).forMethod("affirm")!;
    const part = (amountCents: number, key: string) => ({
      attemptId: started.attemptId,
      reference: token,
      paymentId: transactionId,
      amountCents,
      part: { idempotencyKey: key },
    });

    // Not captured yet (the order has not shipped): a part cannot be given back, and nothing is voided.
    expect(await provider.refundPayment!(part(2_500, "return-refund-a"))).toMatchObject({ status: "refused" });
    expect(affirm.transactions.get(transactionId)).toMatchObject({ status: "authorized" });

    expect(await captureOrderPayment(storeOf(database.db, config()), paid.order.orderId)).toEqual({ ok: true });
    expect(await provider.refundPayment!(part(2_500, "return-refund-a"))).toMatchObject({ status: "refunded" });
    const refunds = () => affirm.requests.filter((request) => request.path === `/api/v1/transactions/${transactionId}/refund`);
    expect(refunds()[0]!.body).toEqual({ amount: 2_500 });
    expect(refunds()[0]!.headers["idempotency-key"]).toBe("return-refund-a");
    expect(affirm.transactions.get(transactionId)).toMatchObject({ status: "partially_refunded", amount_refunded: 2_500 });

    // The same key again (a retry) is answered as before; another part goes on from what is left.
    expect(await provider.refundPayment!(part(2_500, "return-refund-a"))).toMatchObject({ status: "refunded" });
    expect(affirm.transactions.get(transactionId)).toMatchObject({ amount_refunded: 2_500 });
    const [attempt] = await database.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, started.attemptId));
    const rest = attempt!.amountCents - 2_500;
    expect(await provider.refundPayment!(part(rest + 1, "return-refund-b"))).toMatchObject({ status: "refused" });
    // A refused key keeps its answer (as Affirm and Stripe do): the next try has a key of its own.
    expect(await provider.refundPayment!(part(rest, "return-refund-b"))).toMatchObject({ status: "refused" });
    expect(await provider.refundPayment!(part(rest, "return-refund-b-2"))).toMatchObject({ status: "refunded" });
    expect(affirm.transactions.get(transactionId)).toMatchObject({ status: "refunded" });
  });
});
