import { describe, expect, it } from "vitest";
import { acknowledgementEmail, acknowledgementReference } from "./request-emails.server";

const input = {
  storeName: "Outdoor Kitchen Outlet",
  storePhone: "(877) 555-0142",
  storeEmail: "sales@example.com",
  number: "R-7K3P9Q",
  orderId: "ABC2345678",
  customerFirstName: "Ada <b>",
  items: ["1 x Grill cover"],
  requestUrl: "https://store.example/order-status/ABC2345678/return",
};

describe("the acknowledgement of a return or a claim", () => {
  it("says the number and what happens next, in plain text and escaped HTML", () => {
    const email = acknowledgementEmail({ ...input, kind: "return" });
    expect(email.subject).toBe("Outdoor Kitchen Outlet: return request R-7K3P9Q received");
    expect(email.text).toContain("We have received your return request R-7K3P9Q for order ABC2345678.");
    expect(email.text).toContain("- 1 x Grill cover");
    expect(email.text).toContain("return authorization and the return labels");
    expect(email.text).toContain(`See its status: ${input.requestUrl}`);
    expect(email.html).toContain("Ada &lt;b&gt;");
    expect(email.tag).toBe("return-requested");
    const claim = acknowledgementEmail({ ...input, kind: "defect", number: "D-4M2X8B" });
    expect(claim.subject).toBe("Outdoor Kitchen Outlet: defect claim D-4M2X8B received");
    expect(claim.text).toContain("manufacturer");
  });

  it("is one email per request", () => {
    expect(acknowledgementReference("return", "id-1")).toBe("return-requested:id-1");
    expect(acknowledgementReference("defect", "id-1")).toBe("claim-received:id-1");
  });

  it("refuses a link that is not http(s)", () => {
    expect(() => acknowledgementEmail({ ...input, kind: "return", requestUrl: "javascript:alert(1)" })).toThrow();
  });
});
