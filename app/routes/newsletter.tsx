import { isNewsletterBot, parseNewsletterForm } from "~/mailing-list/newsletter-form.server";
import { data, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { publicBaseUrl } from "~/config.server";
import { newsletterRedirectTarget, newsletterResult, type NewsletterResult, type NewsletterStatus } from "~/mailing-list/newsletter";
import { subscribe } from "~/mailing-list/subscribe.server";
import { RATE_LIMITS, retryAfterSeconds } from "~/security/rate-limit.server";
import { readForm } from "~/utils/forms.server";
import { logError } from "~/observability/logger.server";

/**
 * The mailing-list action, POST only (readForm answers 405 to anything else). Fields: `email`, `source` (footer or
 * popup), `redirectTo` (a path on this site) and `mode`. The forms send
 * mode=fetch once script runs: they get the result as data, with a status
 * that says what happened (400 for an invalid address, 409 for a duplicate,
 * 503 for a failure), and the page stays. A plain form post (no script) is
 * redirected back to the page it came from, with the result in the query.
 *
 * Double opt-in: a new address is stored as pending and gets a confirmation
 * email (`subscribe.server.ts`). A filled honeypot is answered like a success
 * and nothing is stored or sent.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context.store.config);
  const parsed = parseNewsletterForm(form);

  let status: NewsletterStatus;
  let retryAfterMs = 0;
  if (!parsed.valid) {
    status = "invalid";
  } else if (isNewsletterBot(form)) {
    status = "subscribed";
  } else {
    const { config, emailSender, sessionSecret } = context.store;
    try {
      // Only a valid address counts against the connection's limit.
      const limit = await context.store.rateLimiter.hit(RATE_LIMITS.newsletter, context.clientAddress);
      if (limit.allowed) {
        status = await subscribe(context.store, parsed.email, {
          secret: sessionSecret,
          baseUrl: publicBaseUrl(config),
          storeName: config.STORE_NAME,
          sender: emailSender,
        });
      } else {
        retryAfterMs = limit.retryAfterMs;
        status = "rate-limited";
      }
    } catch (error) {
      logError("Mailing list unavailable", error);
      status = "failed";
    }
  }

  const result = newsletterResult(status, parsed.source, parsed.email);

  if (form.mode === "fetch") {
    const headers: Record<string, string> = status === "rate-limited" ? { "Retry-After": String(retryAfterSeconds(retryAfterMs)) } : {};
    return data(result, { status: HTTP_STATUS[status], headers });
  }
  return redirect(newsletterRedirectTarget(form.redirectTo, result), 303);
}

/** GET /newsletter has nothing to show: send the visitor home. */
export function loader() {
  return redirect("/", 303);
}

export type NewsletterActionData = NewsletterResult;

const HTTP_STATUS: Record<NewsletterStatus, number> = { subscribed: 200, invalid: 400, duplicate: 409, failed: 503, "rate-limited": 429 };
