import { describe, expect, it } from "vitest";
import { CONTACT_MESSAGES, HONEYPOT_FIELD } from "./contact";
import { parseContactForm } from "./contact-form.server";

const valid = { name: "Dana Smith", email: "dana@example.com", phone: "(512) 555-0100", message: "Do you ship to Alaska?" };

describe("parseContactForm", () => {
  it("accepts a complete message and trims it", () => {
    expect(parseContactForm({ ...valid, name: "  Dana Smith " })).toEqual({ ok: true, values: valid, isBot: false });
  });

  it("requires every field, with a message under each", () => {
    const result = parseContactForm({});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      name: CONTACT_MESSAGES.name,
      email: CONTACT_MESSAGES.email,
      phone: CONTACT_MESSAGES.phone,
      message: CONTACT_MESSAGES.message,
    });
    expect(result.values).toEqual({ name: "", email: "", phone: "", message: "" });
  });

  it("keeps what was typed when something is wrong", () => {
    const result = parseContactForm({ ...valid, email: "dana@example" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({ email: CONTACT_MESSAGES.email });
    expect(result.values.email).toBe("dana@example");
    expect(result.values.name).toBe("Dana Smith");
  });

  it.each(["5125550100", "+1 512 555 0100", "512.555.0100", "(512) 555-0100"])("accepts the phone %j", (phone) => {
    expect(parseContactForm({ ...valid, phone }).ok).toBe(true);
  });

  it.each(["555-0100", "call me", "5125550100x12", "1234567890123456"])("refuses the phone %j", (phone) => {
    const result = parseContactForm({ ...valid, phone });
    expect(result.ok === false && result.errors.phone).toBe(CONTACT_MESSAGES.phone);
  });

  it("limits the message length", () => {
    const result = parseContactForm({ ...valid, message: "x".repeat(5001) });
    expect(result.ok === false && result.errors.message).toBe("Message must be 5000 characters or fewer.");
  });

  it("ignores values that are not text", () => {
    expect(parseContactForm({ ...valid, name: ["a"] as unknown as string }).ok).toBe(false);
  });

  it("spots a filled honeypot", () => {
    expect(parseContactForm({ ...valid, [HONEYPOT_FIELD]: "http://spam.example" }).isBot).toBe(true);
    expect(parseContactForm({ ...valid, [HONEYPOT_FIELD]: "" }).isBot).toBe(false);
  });
});
