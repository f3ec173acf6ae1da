import { describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { CHAT_ERRORS } from "./conversation";
import { replyToOption } from "./flow.server";

const store = { name: "Outdoor Kitchen Outlet", phone: "(877) 555-0142", email: "sales@example.com" };
/** A database that fails every query, like a lost connection. */
const brokenDb = new Proxy(
  {},
  {
    get: () => () => {
      throw new Error("connection lost");
    },
  },
) as unknown as Database;
const deps = { store, now: new Date("2025-06-01T12:00:00Z"), logger: { error: vi.fn() } };

describe("replyToOption", () => {
  it("Products lists the 20 displayed brands as options", async () => {
    const reply = await replyToOption(brokenDb, "products", deps);
    expect(reply?.userText).toBe("Products");
    expect(reply?.delayMs).toBe(0);
    const options = reply?.reply.options ?? [];
    expect(options).toHaveLength(20);
    expect(options[0]).toEqual({ label: "Alfresco", value: "brand:alfresco" });
    expect(options).toContainEqual({ label: "Blaze", value: "brand:blaze" });
    expect(options).toContainEqual({ label: "The Outdoor Plus", value: "brand:the_outdoor_plus" });
    expect(options.map((option) => option.value)).not.toContain("brand:breeo");
  });

  it("Contact gives the phone, the email and a link to /contact", async () => {
    const reply = await replyToOption(brokenDb, "contact", deps);
    expect(reply?.reply.text).toContain("(877) 555-0142");
    expect(reply?.reply.text).toContain("sales@example.com");
    expect(reply?.reply.links).toEqual([
      { label: "Call (877) 555-0142", href: "tel:+18775550142" },
      { label: "Email sales@example.com", href: "mailto:sales@example.com" },
      { label: "Contact page", href: "/contact" },
    ]);
    expect(reply?.reply.options?.map((option) => option.label)).toEqual(["Products", "Contact", "Delivery"]);
  });

  it("Delivery gives the spec's shipping facts", async () => {
    const text = (await replyToOption(brokenDb, "delivery", deps))?.reply.text ?? "";
    for (const fact of [
      "free on orders over $49",
      "$6.95",
      "within 24 hours",
      "The Outdoor Plus",
      "4 - 6 weeks",
      "3-5 business days",
      "United States",
      "curbside",
      "tracking",
    ]) {
      expect(text).toContain(fact);
    }
  });

  it("refuses values that are no option", async () => {
    for (const value of ["", "hack", "brand:breeo", "brand:../../etc", "product:", `product:${"x".repeat(500)}`]) {
      expect(await replyToOption(brokenDb, value, deps)).toBeNull();
    }
  });

  it("answers a failed product load with the spec's message", async () => {
    const brand = await replyToOption(brokenDb, "brand:blaze", deps);
    expect(brand?.userText).toBe("Blaze");
    expect(brand?.reply.text).toBe(CHAT_ERRORS.products);
    const product = await replyToOption(brokenDb, "product:blaze-3159840", deps);
    expect(product?.reply.text).toBe(CHAT_ERRORS.products);
    expect(product?.delayMs).toBe(500);
    expect(deps.logger.error).toHaveBeenCalled();
  });
});
