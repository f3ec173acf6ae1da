import type { Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { paymentProviderFor, testPaymentsEnabled } from "~/services/payments/index.server";
import type { PaymentMethod, PaymentProvider } from "~/services/payments/types";
import type { PaymentAttempt } from "./attempts.server";

/** The provider that must verify, refund or capture this attempt: the one that started it, and the test page only while test payments are on. */
export function providerForAttempt(db: Database, config: Config, attempt: PaymentAttempt): PaymentProvider | null {
  if (attempt.provider === "test" && !testPaymentsEnabled(config)) return null;
  const provider = paymentProviderFor(db, config, attempt.method as PaymentMethod);
  return provider && provider.id === attempt.provider ? provider : null;
}
