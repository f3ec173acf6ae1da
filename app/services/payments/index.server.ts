import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { createPayPalProviderFromConfig, isPayPalConfigured } from "./paypal.server";
import { createAuthorizeNetFromConfig, isAuthorizeNetConfigured } from "./authorize-net.server";
import { createStripeProvider, isStripeConfigured, stripeOptionsFromConfig } from "./stripe.server";
import { affirmProviderFromConfig, isAffirmConfigured } from "./affirm.server";
import { createTestPaymentProvider } from "./test-payments.server";
import { PAYMENT_METHODS, type PaymentMethod, type PaymentOption, type PaymentProvider } from "./types";

/**
 * A real provider's driver: which method it serves, whether its keys are set,
 * and how to build it from the configuration. Each driver adds one entry.
 */
interface RealDriver {
  method: PaymentMethod;
  isConfigured(config: Config): boolean;
  create(config: Config): PaymentProvider;
}

const REAL_DRIVERS: readonly RealDriver[] = [
  { method: "stripe", isConfigured: isStripeConfigured, create: (config) => createStripeProvider(stripeOptionsFromConfig(config)) },
  { method: "paypal", isConfigured: isPayPalConfigured, create: createPayPalProviderFromConfig },
  { method: "affirm", isConfigured: isAffirmConfigured, create: affirmProviderFromConfig },
  { method: "authorizenet", isConfigured: isAuthorizeNetConfigured, create: createAuthorizeNetFromConfig },
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

/**
 * The provider that takes payments by this method: its real driver when its
 * keys are set, else the test page when test payments are enabled, else none
 * (checkout then says the method is not available).
 */
export function paymentProviderFor(db: Database, config: Config, method: PaymentMethod): PaymentProvider | null {
  const driver = REAL_DRIVERS.find((candidate) => candidate.method === method && candidate.isConfigured(config));
  if (driver) return driver.create(config);
  return testPaymentsEnabled(config) ? createTestPaymentProvider(db, method) : null;
}

/** The methods a shopper can pay with right now, in the spec's order. */
export function availablePaymentOptions(db: Database, config: Config): PaymentOption[] {
  return (Object.keys(PAYMENT_METHODS) as PaymentMethod[]).flatMap((method) => {
    const provider = paymentProviderFor(db, config, method);
    const { label, description } = PAYMENT_METHODS[method];
    return provider ? [{ method, label, description, provider: provider.id, isTest: provider.isStandIn }] : [];
  });
}
