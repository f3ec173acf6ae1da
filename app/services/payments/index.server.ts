import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { createPayPalProviderFromConfig, isPayPalConfigured, type PayPalProvider } from "./paypal.server";
import { createAuthorizeNetFromConfig, isAuthorizeNetConfigured, type AuthorizeNetProvider } from "./authorize-net.server";
import { createStripeProvider, isStripeConfigured, stripeOptionsFromConfig } from "./stripe.server";
import { affirmProviderFromConfig, isAffirmConfigured } from "./affirm.server";
import { createTestPaymentProvider } from "./test-payments.server";
import { PAYMENT_METHODS, type PaymentMethod, type PaymentOption, type PaymentProvider } from "./types";

/** Whether each real provider's keys are set, in the spec's order of methods. */
const REAL_DRIVERS: readonly { method: PaymentMethod; isConfigured(config: Config): boolean }[] = [
  { method: "stripe", isConfigured: isStripeConfigured },
  { method: "paypal", isConfigured: isPayPalConfigured },
  { method: "affirm", isConfigured: isAffirmConfigured },
  { method: "authorizenet", isConfigured: isAuthorizeNetConfigured },
];

/** The methods whose real provider has its keys set. */
export function configuredRealMethods(config: Config): PaymentMethod[] {
  return REAL_DRIVERS.filter((driver) => driver.isConfigured(config)).map((driver) => driver.method);
}

/**
 * Whether the offline test payment page (which approves orders without
 * charging anyone) is offered and accepted: by default only while no real
 * provider is configured; PAYMENTS_TEST_MODE=on or off says so explicitly.
 */
export function testPaymentsEnabled(config: Config): boolean {
  if (config.PAYMENTS_TEST_MODE === "on") return true;
  if (config.PAYMENTS_TEST_MODE === "off") return false;
  return configuredRealMethods(config).length === 0;
}

/** The payment providers the configuration chooses, built once with the runtime (`context.store.payments`). */
export interface PaymentProviders {
  /**
   * The provider that takes payments by this method: its real driver when its keys are set, else the
   * test page when test payments are enabled, else none (checkout then says the method is not available).
   */
  forMethod(method: PaymentMethod): PaymentProvider | null;
  /** The provider that must verify, refund or capture this attempt: the one that started it, and the test page only while test payments are on. */
  forAttempt(attempt: { provider: string; method: string }): PaymentProvider | null;
  /** The methods a shopper can pay with right now, in the spec's order. */
  options(): PaymentOption[];
  /** PayPal's real driver when its keys are set, for what only it does (verifying a webhook's signature). */
  paypal: PayPalProvider | null;
  /** Authorize.Net's real driver when its keys are set, for what only it does (a webhook's transaction look-up). */
  authorizeNet: AuthorizeNetProvider | null;
}

export function paymentProvidersFor(config: Config, db: Database): PaymentProviders {
  const methods = Object.keys(PAYMENT_METHODS) as PaymentMethod[];
  const paypal = isPayPalConfigured(config) ? createPayPalProviderFromConfig(config) : null;
  const authorizeNet = isAuthorizeNetConfigured(config) ? createAuthorizeNetFromConfig(config) : null;
  const real = new Map<PaymentMethod, PaymentProvider | null>([
    ["stripe", isStripeConfigured(config) ? createStripeProvider(stripeOptionsFromConfig(config)) : null],
    ["paypal", paypal],
    ["affirm", isAffirmConfigured(config) ? affirmProviderFromConfig(config) : null],
    ["authorizenet", authorizeNet],
  ]);
  const testPayments = testPaymentsEnabled(config);
  const byMethod = new Map(
    methods.map((method) => [method, real.get(method) ?? (testPayments ? createTestPaymentProvider(db, method) : null)]),
  );
  const forMethod = (method: PaymentMethod) => byMethod.get(method) ?? null;
  return {
    paypal,
    authorizeNet,
    forMethod,
    forAttempt(attempt) {
      const provider = forMethod(attempt.method as PaymentMethod);
      return provider && provider.id === attempt.provider ? provider : null;
    },
    options: () =>
      methods.flatMap((method) => {
        const provider = forMethod(method);
        const { label, description } = PAYMENT_METHODS[method];
        return provider ? [{ method, label, description, provider: provider.id, isTest: provider.isStandIn }] : [];
      }),
  };
}
