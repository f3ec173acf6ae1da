import { describe, expect, it } from "vitest";
import { formatLongDate, formatUsd } from "./format";
import { backInStockEmail, stockAlertConfirmationEmail } from "./subscription-emails";
import { contactMessageEmail, orderConfirmationEmail, TEST_ORDER_NOTICE, type OrderConfirmationInput } from "./templates";

const order: OrderConfirmationInput = {
  storeName: "Outdoor Kitchen Outlet",
  storePhone: "(877) 555-0142",
  storeEmail: "sales@example.com",
  orderId: "ORD-1001",
  orderUrl: "https://shop.example.com/order-status?orderId=ORD-1001&from=email",
  customerFirstName: "Dana",
  items: [
    { title: "Blaze Premium LTE+ 40-Inch 5-Burner Grill", model: "BLZ-5LTE3-NG", quantity: 1, unitPriceCents: 249999 },
    { title: "Love Rub Seasoning", model: "LOVE-RUB", quantity: 2, unitPriceCents: 1599 },
  ],
  subtotalCents: 253197,
  shippingCents: 0,
  taxCents: 0,
  discountCents: 1000,
  totalCents: 252197,
  createdAt: new Date("2026-11-05T15:30:00Z"),
};

describe("formatUsd", () => {
  it("formats integer cents as US dollars", () => {
    expect(formatUsd(123456)).toBe("$1,234.56");
    expect(formatUsd(5)).toBe("$0.05");
    expect(formatUsd(0)).toBe("$0.00");
  });

  it("refuses fractional cents", () => {
    expect(() => formatUsd(12.5)).toThrow(RangeError);
  });
});

describe("formatLongDate", () => {
  it("writes a long month, a two-digit day and the year", () => {
    expect(formatLongDate(new Date("2026-11-05T15:30:00Z"))).toBe("November 05, 2026");
  });
});

describe("orderConfirmationEmail", () => {
  const email = orderConfirmationEmail(order);

  it("names the order in the subject", () => {
    expect(email.subject).toBe("Outdoor Kitchen Outlet: order ORD-1001 confirmed");
    expect(email.tag).toBe("order-confirmation");
  });

  it("puts the order id and the order link in both bodies", () => {
    expect(email.text).toContain("ORD-1001");
    expect(email.text).toContain(order.orderUrl);
    expect(email.html).toContain("ORD-1001");
    expect(email.html).toContain('href="https://shop.example.com/order-status?orderId=ORD-1001&amp;from=email"');
  });

  it("lists every item with formatted prices and the totals", () => {
    expect(email.text).toContain("- Blaze Premium LTE+ 40-Inch 5-Burner Grill (Model BLZ-5LTE3-NG): 1 x $2,499.99 = $2,499.99");
    expect(email.text).toContain("- Love Rub Seasoning (Model LOVE-RUB): 2 x $15.99 = $31.98");
    expect(email.text).toContain("Subtotal: $2,531.97");
    expect(email.text).toContain("Shipping: Free");
    expect(email.text).toContain("Discount: -$10.00");
    expect(email.text).toContain("Total: $2,521.97");
    expect(email.text).toContain("November 05, 2026");
    expect(email.html).toContain("$2,521.97");
    expect(email.html).toContain("$31.98");
  });

  it("marks an order paid on the test payment page as a test, and only that one", () => {
    const test = orderConfirmationEmail({ ...order, isTestPayment: true });
    expect(test.text.split("\n")[0]).toBe(TEST_ORDER_NOTICE);
    expect(test.html).toContain("TEST ORDER");
    expect(orderConfirmationEmail(order).text).not.toContain("TEST ORDER");
  });

  it("shows the sales tax charged, and why there was none when none was", () => {
    const taxed = orderConfirmationEmail({ ...order, taxCents: 22_411, totalCents: 274_608 });
    expect(taxed.text).toContain("Sales tax: $224.11");
    expect(taxed.html).toContain("$224.11");
    const untaxed = orderConfirmationEmail({ ...order, taxNote: "We do not collect sales tax in Texas." });
    expect(untaxed.text).toContain("Sales tax: $0.00 (We do not collect sales tax in Texas.)");
  });

  it("shows a paid shipping amount and leaves out a zero discount", () => {
    const paid = orderConfirmationEmail({ ...order, shippingCents: 695, discountCents: 0 });
    expect(paid.text).toContain("Shipping: $6.95");
    expect(paid.text).not.toContain("Discount");
  });

  it("escapes everything that came from data in the html body", () => {
    const hostile = orderConfirmationEmail({
      ...order,
      customerFirstName: "<script>alert(1)</script>",
      items: [{ title: 'Grill "Pro" <b>', model: "A&B", quantity: 1, unitPriceCents: 100 }],
    });
    expect(hostile.html).not.toContain("<script>");
    expect(hostile.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(hostile.html).toContain("Grill &quot;Pro&quot; &lt;b&gt;");
    expect(hostile.html).toContain("Model A&amp;B");
  });

  it("refuses a link that is not http(s)", () => {
    expect(() => orderConfirmationEmail({ ...order, orderUrl: "javascript:alert(1)" })).toThrow();
  });

  it("greets without a name when none is known", () => {
    expect(orderConfirmationEmail({ ...order, customerFirstName: " " }).text).toMatch(/^Hi there,/);
    // An order recorded before names were kept on one line still greets on one line.
    expect(orderConfirmationEmail({ ...order, customerFirstName: "Dana\r\nP.S. Call +1-900-SCAM" }).text).toMatch(
      /^Hi Dana P\.S\. Call \+1-900-SCAM,$/m,
    );
  });
});

describe("contactMessageEmail", () => {
  const input = {
    name: "Sam <Admin>",
    email: "sam@example.com",
    phone: "(555) 123-4567",
    message: "Do you ship to Alaska?\nThanks & regards",
    storeName: "Outdoor Kitchen Outlet",
  };

  it("carries every field, with replies going to the visitor", () => {
    const email = contactMessageEmail(input);
    expect(email.subject).toBe("New contact message from Sam <Admin>");
    expect(email.replyTo).toBe("sam@example.com");
    expect(email.tag).toBe("contact-message");
    for (const value of ["Sam <Admin>", "sam@example.com", "(555) 123-4567", "Do you ship to Alaska?\nThanks & regards"]) {
      expect(email.text).toContain(value);
    }
  });

  it("escapes the visitor's words in html and keeps line breaks", () => {
    const { html } = contactMessageEmail(input);
    expect(html).toContain("Sam &lt;Admin&gt;");
    expect(html).toContain("Do you ship to Alaska?<br>\nThanks &amp; regards");
    expect(html).not.toContain("<Admin>");
  });

  it("keeps the subject on one line", () => {
    const { subject } = contactMessageEmail({ ...input, name: "Eve\r\nBcc: victim@example.com" });
    expect(subject).toBe("New contact message from Eve Bcc: victim@example.com");
  });
});

describe("the Notify me emails", () => {
  const input = {
    storeName: "Outdoor Kitchen Outlet",
    productTitle: 'Blaze <Premium> "LTE" 32"',
    productUrl: "https://shop.example/product/blaze-1",
    unsubscribeUrl: "https://shop.example/notify-me/unsubscribe?token=u.1",
  };

  it("asks to confirm, naming the product and linking to it, with the unsubscribe link", () => {
    const email = stockAlertConfirmationEmail({ ...input, confirmUrl: "https://shop.example/notify-me/confirm?token=c.1" });
    expect(email.tag).toBe("stock-alert-confirmation");
    expect(email.subject).toBe('Confirm: email me when Blaze <Premium> "LTE" 32" is back in stock');
    for (const url of ["https://shop.example/notify-me/confirm?token=c.1", input.productUrl, input.unsubscribeUrl]) {
      expect(email.text).toContain(url);
      expect(email.html).toContain(url);
    }
    expect(email.html).toContain("Blaze &lt;Premium&gt; &quot;LTE&quot; 32&quot;");
    expect(email.html).not.toContain("<Premium>");
  });

  it("tells once that the product is back, with its page and the unsubscribe link", () => {
    const email = backInStockEmail(input);
    expect(email.tag).toBe("back-in-stock");
    expect(email.subject).toBe('Back in stock: Blaze <Premium> "LTE" 32"');
    expect(email.text).toContain(`Order it here: ${input.productUrl}`);
    expect(email.text).toContain(input.unsubscribeUrl);
    expect(email.html).toContain(`href="${input.productUrl}"`);
    expect(email.html).toContain("Unsubscribe");
  });

  it("refuses a link that is not http(s)", () => {
    expect(() => backInStockEmail({ ...input, productUrl: "javascript:alert(1)" })).toThrow();
  });
});
