import { describe, expect, it } from "vitest";
import { parseCustomer } from "./customer.server";

const valid = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  phone: "5125550100",
  address: "1 Main St",
  city: "Austin",
  state: "TX",
  postalCode: "78701",
};

const form = (values: Record<string, string>) => values;

describe("checkout customer form", () => {
  it("accepts a complete US address", () => {
    const result = parseCustomer(form(valid));
    expect(result.ok).toBe(true);
  });

  it("gives the spec's exact messages and keeps what was typed", () => {
    const result = parseCustomer(form({ ...valid, firstName: " ", lastName: "", address: "", email: "ada@", phone: "555-0100" }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      firstName: "Please enter your first name.",
      lastName: "Please enter your last name.",
      address: "Please enter your address.",
      email: "Please enter a valid email address.",
      phone: "Please enter a valid phone number (10-15 digits).",
    });
    expect(result.values.email).toBe("ada@");
  });

  it.each(["123456789", "1234567890123456", "12345 67890", "+15125550100"])("rejects the phone %s", (phone) => {
    expect(parseCustomer(form({ ...valid, phone })).ok).toBe(false);
  });

  it.each(["5125550100", "441234567890123"])("accepts the phone %s (10-15 digits)", (phone) => {
    expect(parseCustomer(form({ ...valid, phone })).ok).toBe(true);
  });

  it("checks state and ZIP", () => {
    const result = parseCustomer(form({ ...valid, state: "ZZ", postalCode: "7870" }));
    expect(result.ok ? {} : result.errors).toEqual({ state: "Please choose your state.", postalCode: "Please enter a valid ZIP code." });
  });

  it("refuses a ZIP code of another state, and one of no state", () => {
    expect(parseCustomer(form({ ...valid, postalCode: "94105" }))).toMatchObject({
      ok: false,
      errors: { postalCode: "This ZIP code is not in Texas. Please check the state and the ZIP code." },
    });
    expect(parseCustomer(form({ ...valid, postalCode: "00000" }))).toMatchObject({ ok: false, errors: { postalCode: expect.any(String) } });
    expect(parseCustomer(form({ ...valid, postalCode: "78701-1234" })).ok).toBe(true);
  });

  it("keeps names and addresses on one line: a line break typed into them becomes a space", () => {
    const result = parseCustomer(form({ ...valid, firstName: "Ada\r\nBcc: victim@example.com", address: "1 Main St\n\u2028Apt 2" }));
    expect(result).toMatchObject({ ok: true, customer: { firstName: "Ada Bcc: victim@example.com", address: "1 Main St Apt 2" } });
  });
});
