import { FAKE_PAYPAL_CLIENT_ID, FAKE_PAYPAL_CLIENT_SECRET, type FakePayPal, type RecordedRequest } from "../fakes/paypal";
import { paymentToStart } from "./shopping-fixtures";
import { createPayPalProvider } from "~/services/payments/paypal.server";

/** What the PayPal driver's tests share: a payment to start and the driver on the file's fake. */

export const item = (productKey: string, title: string, unitPriceCents: number, quantity: number) => ({
  productKey,
  title,
  model: "M-1",
  brand: "blaze",
  imageUrl: `http://store.test/images/${productKey}.svg`,
  productUrl: `http://store.test/product/${productKey}`,
  categories: ["Grills"],
  unitPriceCents,
  quantity,
});

/** $11,399.98 of items − $114.00 off + $99.99 shipping + $959.70 tax = $12,345.67. */
export const paypalInput = paymentToStart({
  method: "paypal",
  attemptId: "pa_attempt0000000001",
  checkoutToken: "chk_token_0001",
  amountCents: 1234567,
  subtotalCents: 1_139_998,
  discountCents: 11_400,
  shippingCents: 9_999,
  taxCents: 95_970,
  items: [item("blaze-3159840", "Blaze 32 Inch Grill", 499_999, 2), item("blaze-cover-1", "Blaze Grill Cover", 14_000, 10)],
});
export const usd = (value: string) => ({ currency_code: "USD", value });

/** The driver on `fake`, and what the tests ask of it and of what the fake received. */
export function paypalDriverKit(fake: FakePayPal) {
  const paypal = (timeoutMs = 2_000) =>
    createPayPalProvider({
      clientId: FAKE_PAYPAL_CLIENT_ID,
      clientSecret: FAKE_PAYPAL_CLIENT_SECRET,
      apiBase: fake.url,
      brandName: "Outdoor Kitchen Outlet",
      timeoutMs,
    });
  const verify = (reference: string, attemptId = paypalInput.attemptId) =>
    paypal().verifyPayment({ attemptId, reference, amountCents: paypalInput.amountCents, returnParams: new URLSearchParams() });
  const sent = (method: string, pathStart: string): RecordedRequest[] =>
    fake.apiRequests().filter((request) => request.method === method && request.path.startsWith(pathStart));
  const failure = (promise: Promise<unknown>) => promise.then(() => null).catch((error: unknown) => error);

  /** Only the REST calls fail this way; the token endpoint keeps answering. */
  function ordersAnswer(
    handler: (request: RecordedRequest) => ReturnType<FakePayPal["answer"]> | Promise<ReturnType<FakePayPal["answer"]>>,
  ) {
    fake.respondWith((request) => (request.path.startsWith("/v2/") ? handler(request) : fake.answer(request)));
  }
  return { paypal, verify, sent, failure, ordersAnswer };
}
