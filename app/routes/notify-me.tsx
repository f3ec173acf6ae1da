import { data, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { parseProductKey } from "~/components/shared";
import { publicBaseUrl } from "~/config.server";
import { logError } from "~/observability/logger.server";
import { RATE_LIMITS, retryAfterSeconds, type RateLimitDecision } from "~/security/rate-limit.server";
import { NOTIFY_ME_MESSAGES, notifyMeRedirectTarget, type NotifyMeStatus } from "~/stock/notify-me";
import { isStockAlertBot, parseStockAlertForm, requestStockAlert } from "~/stock/stock-alerts.server";
import { readForm } from "~/utils/forms.server";

/**
 * "Notify me when available", POST only (readForm answers 405 to anything else). Fields: `productKey`,
 * `email`, the honeypot and `mode`. A plain form post (the product page's form, no script needed) is
 * redirected back to the product's page with the answer's code (`?notify=sent#notify-me`), which the page
 * shows as a fixed text; with `mode=fetch` the answer is data with a status that says what happened (400
 * an invalid address, 404 no such product, 409 available now, 429 too many, 503 a failure).
 *
 * Double opt-in: the address gets a confirmation link first (app/stock/stock-alerts.server.ts). A filled
 * honeypot is answered like a success and nothing is stored or sent. Limited per client address and per
 * email address (RATE_LIMITS.stockAlert, stockAlertEmail); only a valid address is counted.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context.store.config);
  const parsed = parseStockAlertForm(form);

  let status: NotifyMeStatus;
  let retryAfterMs = 0;
  if (!parsed.email) {
    status = "invalid";
  } else if (isStockAlertBot(form)) {
    status = "sent";
  } else {
    const { config, emailSender, rateLimiter, sessionSecret } = context.store;
    try {
      const limit = await firstRefusal([
        () => rateLimiter.hit(RATE_LIMITS.stockAlert, context.clientAddress),
        () => rateLimiter.hit(RATE_LIMITS.stockAlertEmail, parsed.email!.toLowerCase()),
      ]);
      if (limit.allowed) {
        status = await requestStockAlert(
          context.store,
          { productKey: parsed.productKey, email: parsed.email },
          { secret: sessionSecret, baseUrl: publicBaseUrl(config), storeName: config.STORE_NAME, sender: emailSender },
        );
      } else {
        retryAfterMs = limit.retryAfterMs;
        status = "rate-limited";
      }
    } catch (error) {
      logError("Notify me unavailable", error);
      status = "failed";
    }
  }

  if (form.mode === "fetch") {
    const headers: Record<string, string> = status === "rate-limited" ? { "Retry-After": String(retryAfterSeconds(retryAfterMs)) } : {};
    return data({ status, message: NOTIFY_ME_MESSAGES[status] }, { status: HTTP_STATUS[status], headers });
  }
  // A product that is not there has no page to go back to.
  const known = status !== "unknown" && parseProductKey(parsed.productKey) !== null;
  return redirect(known ? notifyMeRedirectTarget(parsed.productKey, status) : "/", 303);
}

/** The limits in turn: the first that refuses answers, and the later ones are not counted. */
async function firstRefusal(hits: ReadonlyArray<() => Promise<RateLimitDecision>>): Promise<RateLimitDecision> {
  for (const hit of hits) {
    const decision = await hit();
    if (!decision.allowed) return decision;
  }
  return { allowed: true, retryAfterMs: 0 };
}

/** GET /notify-me has nothing to show: send the visitor home. */
export function loader() {
  return redirect("/", 303);
}

export type NotifyMeActionData = { status: NotifyMeStatus; message: string };

const HTTP_STATUS: Record<NotifyMeStatus, number> = {
  sent: 200,
  invalid: 400,
  unknown: 404,
  available: 409,
  "rate-limited": 429,
  failed: 503,
};
