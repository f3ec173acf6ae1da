import { describe, expect, it } from "vitest";
import { cancelledPaymentWords } from "./order-email.server";
import { orderCancelledEmail, orderShippedEmail, refundIssuedEmail } from "~/services/email/templates";

const base = {
  storeName: "Outdoor Kitchen Outlet",
  storePhone: "(877) 555-0142",
  storeEmail: "sales@example.com",
  customerFirstName: "Ada",
  orderId: "ABCDEFGH23",
  orderUrl: "https://store.example/order-status/ABCDEFGH23",
};

describe("the after-sale emails", () => {
  it("say the order has shipped, with carrier, number and the tracking link in both parts", () => {
    const email = orderShippedEmail({
      ...base,
      carrier: "UPS",
      trackingNumber: "1Z999AA10123456784",
      trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    });
    expect(email.subject).toBe("Outdoor Kitchen Outlet: your order ABCDEFGH23 has shipped");
    expect(email.tag).toBe("order-shipped");
    expect(email.text).toContain("Your order has shipped!");
    expect(email.text).toContain("Carrier: UPS. Tracking number: 1Z999AA10123456784.");
    expect(email.text).toContain("Track your parcel: https://www.ups.com/track?tracknum=1Z999AA10123456784");
    expect(email.text).toContain("View your order: https://store.example/order-status/ABCDEFGH23");
    expect(email.html).toContain('<a href="https://www.ups.com/track?tracknum=1Z999AA10123456784">Track your parcel</a>');
  });

  it("give the number without a link for a carrier without a tracking page, and escape what they show", () => {
    const email = orderShippedEmail({
      ...base,
      customerFirstName: "<b>Ada</b>",
      carrier: "Other",
      trackingNumber: "PRO-1",
      trackingUrl: null,
    });
    expect(email.text).not.toContain("Track your parcel");
    expect(email.html).toContain("Hi &lt;b&gt;Ada&lt;/b&gt;,");
  });

  it("call a corrected number a correction, not a second shipment", () => {
    const email = orderShippedEmail({ ...base, carrier: "FedEx", trackingNumber: "449044304137821", trackingUrl: null, corrected: true });
    expect(email.subject).toBe("Outdoor Kitchen Outlet: corrected tracking for order ABCDEFGH23");
    expect(email.tag).toBe("order-tracking-corrected");
    expect(email.text).not.toContain("has shipped");
  });

  it("say what happens to the payment of a cancelled order, per provider", () => {
    const payment = { amountCents: 12345, authorizationExpiresAt: null, capturedAt: null, refundedAt: null };
    expect(cancelledPaymentWords({ ...payment, provider: "stripe" }, "stripe")).toBe(
      "We are refunding your payment of $123.45 to the card you paid with, and will email you when the refund is issued.",
    );
    expect(cancelledPaymentWords({ ...payment, provider: "paypal" }, "paypal")).toContain("to your PayPal account");
    expect(cancelledPaymentWords({ ...payment, provider: "affirm", authorizationExpiresAt: new Date() }, "affirm")).toContain(
      "you will owe nothing",
    );
    expect(cancelledPaymentWords(null, "test")).toContain("no money moved");
    const email = orderCancelledEmail({ ...base, payment: "We are refunding it." });
    expect(email).toMatchObject({ subject: "Outdoor Kitchen Outlet: order ABCDEFGH23 was cancelled", tag: "order-cancelled" });
    expect(email.text).toContain("Your order ABCDEFGH23 was cancelled.\n\nWe are refunding it.");
  });

  it("say how much was refunded, where to, and when it arrives", () => {
    const email = refundIssuedEmail({
      ...base,
      amountCents: 12345,
      method: "the card you paid with",
      arrival: "Card refunds usually appear on your statement within 5 to 10 business days, depending on your bank.",
    });
    expect(email.subject).toBe("Outdoor Kitchen Outlet: refund issued for order ABCDEFGH23");
    expect(email.text).toContain("We have refunded $123.45 for order ABCDEFGH23 to the card you paid with.");
    expect(email.text).toContain("5 to 10 business days");
  });
});
