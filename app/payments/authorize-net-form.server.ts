import { getCheckout } from "~/checkout/checkout.server";
import { checkoutPagePath } from "~/checkout/paths";
import { publicBaseUrl, type Config } from "~/config.server";
import type { Database } from "~/db/database.server";
import { getAttempt } from "~/payments/attempts.server";
import { paymentReturnUrl } from "~/payments/start-payment.server";
import { authorizeNetHostedUrl } from "~/services/payments/authorize-net.server";

/** Form tokens are opaque base64-like strings of a few hundred characters. */
const FORM_TOKEN = /^[A-Za-z0-9+/=._-]{1,8192}$/;

export type HostedFormPage =
  | { kind: "form"; token: string; hostedUrl: string; returnUrl: string; checkoutPath: string; amountCents: number }
  | { kind: "done"; returnUrl: string }
  | { kind: "invalid"; checkoutPath: string | null };

/**
 * What our page before Authorize.Net's hosted form shows: the form that posts
 * the token for a started hosted-form attempt, the return page once the
 * attempt is decided, or a way back to checkout for anything else.
 */
export async function hostedFormPage(db: Database, config: Config, attemptId: string, token: string | null): Promise<HostedFormPage> {
  const attempt = await getAttempt(db, attemptId);
  const checkout = attempt ? await getCheckout(db, attempt.checkoutToken) : null;
  if (!attempt || !checkout || attempt.provider !== "authorizenet" || attempt.method !== "authorizenet") {
    return { kind: "invalid", checkoutPath: null };
  }
  const returnUrl = paymentReturnUrl(publicBaseUrl(config), "authorizenet", checkout.token, attempt.id);
  const checkoutPath = checkoutPagePath(checkout.kind, checkout.token);
  if (attempt.status !== "started" || checkout.status === "paid") return { kind: "done", returnUrl };
  if (!token || !FORM_TOKEN.test(token)) return { kind: "invalid", checkoutPath };
  return { kind: "form", token, hostedUrl: authorizeNetHostedUrl(config), returnUrl, checkoutPath, amountCents: attempt.amountCents };
}
