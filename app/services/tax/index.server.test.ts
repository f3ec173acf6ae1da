import { describe, expect, it } from "vitest";
import { taxServiceFor, type TaxConfig } from "./index.server";

const config = (overrides: Partial<TaxConfig> = {}): TaxConfig => ({
  TAX_PROVIDER: "offline",
  TAX_REGISTERED_STATES: ["CA", "NY"],
  STRIPE_SECRET_KEY: undefined,
  STRIPE_TAX_API_BASE: undefined,
  STRIPE_API_BASE: undefined,
  ...overrides,
});

describe("taxServiceFor", () => {
  it("is the offline table for the registered states by default", () => {
    expect(taxServiceFor(config())).toMatchObject({ id: "offline", isStandIn: true, registeredStates: ["CA", "NY"] });
  });

  it("is Stripe Tax with TAX_PROVIDER=stripe", () => {
    expect(taxServiceFor(config({ TAX_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_1" }))).toMatchObject({
      id: "stripe",
      isStandIn: false,
      registeredStates: null,
    });
  });

  it("refuses Stripe Tax without a secret key", () => {
    expect(() => taxServiceFor(config({ TAX_PROVIDER: "stripe" }))).toThrow(/STRIPE_SECRET_KEY/);
  });
});
