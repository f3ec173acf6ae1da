import { randomUUID } from "node:crypto";
import { publicBaseUrl } from "~/config.server";
import type { AfterSaleKind } from "~/db/schema";
import { storeLog } from "~/observability/logger.server";
import { deliverEmail } from "~/services/email/deliveries.server";
import { escapeHtml, greetingName, safeHttpUrl, singleLine } from "~/services/email/format";
import { contactLine, emailDocument } from "~/services/email/layout";
import { returnLinkEmail, type RenderedEmail } from "~/services/email/templates";
import { RATE_LIMITS } from "~/security/rate-limit.server";
import type { StoreRuntime } from "~/store-runtime";
import { returnLinkFor } from "./access.server";

/**
 * The acknowledgement of a return request ("return requested") or a defect claim ("claim
 * received"): its number and what happens next, in plain text and HTML. Sent once per request,
 * whoever asks and however often: the delivery queue's reference is the request
 * (`return-requested:{id}`, `claim-received:{id}`), and a failed send is retried by the queue.
 */

export interface AcknowledgementInput {
  storeName: string;
  storePhone: string;
  storeEmail: string;
  kind: AfterSaleKind;
  number: string;
  orderId: string;
  customerFirstName: string;
  /** Lines as "2 x Blaze grill". */
  items: string[];
  requestUrl: string;
}

export function acknowledgementReference(kind: AfterSaleKind, requestId: string): string {
  return kind === "return" ? `return-requested:${requestId}` : `claim-received:${requestId}`;
}

export function acknowledgementEmail(input: AcknowledgementInput): RenderedEmail {
  const url = safeHttpUrl(input.requestUrl);
  const name = greetingName(input.customerFirstName);
  const isReturn = input.kind === "return";
  const opening = isReturn
    ? `We have received your return request ${input.number} for order ${input.orderId}.`
    : `We have received your defect claim ${input.number} for order ${input.orderId}.`;
  const next = isReturn
    ? [
        "What happens next: we check the request against our Return Policy, usually within two business days.",
        "If we approve it, we email you a return authorization and the return labels. Please ship the items within 30 days of approval, new, unused and in their original packaging; returns sent without our authorization are not refunded.",
        "The cost of shipping, both to you and back to us, is deducted from your refund.",
      ]
    : [
        "What happens next: we pass your claim, with the serial number, description and photos or video you sent, to the manufacturer under its warranty, and we email you their answer.",
        "Repairs and replacements follow the manufacturer's warranty; labor costs are not reimbursed.",
      ];
  const text = [
    `Hi ${name},`,
    "",
    opening,
    "",
    ...input.items.map((item) => `- ${item}`),
    "",
    ...next.flatMap((paragraph) => [paragraph, ""]),
    `See its status: ${url}`,
    "",
    contactLine(input).text,
    "",
    input.storeName,
  ].join("\n");
  const html = emailDocument(`<p>Hi ${escapeHtml(name)},</p>
<p>${escapeHtml(opening)}</p>
<ul>${input.items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>
${next.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
<p><a href="${escapeHtml(url)}">See the status of ${escapeHtml(input.number)}</a></p>
${contactLine(input).html}
<p>${escapeHtml(input.storeName)}</p>`);
  const subject = isReturn ? `return request ${input.number} received` : `defect claim ${input.number} received`;
  return { subject: singleLine(`${input.storeName}: ${subject}`), text, html, tag: isReturn ? "return-requested" : "claim-received" };
}

/** Queues the acknowledgement once per request; never throws (the request stands whatever happens to its email). */
export async function sendAcknowledgement(
  { db, jobs, config, emailSender }: Pick<StoreRuntime, "db" | "jobs" | "config" | "emailSender">,
  input: {
    requestId: string;
    kind: AfterSaleKind;
    number: string;
    orderId: string;
    customer: { email: string; firstName: string };
    items: string[];
  },
): Promise<void> {
  const path = input.kind === "return" ? "return" : "claim";
  try {
    const message = acknowledgementEmail({
      storeName: config.STORE_NAME,
      storePhone: config.STORE_PHONE,
      storeEmail: config.STORE_EMAIL,
      kind: input.kind,
      number: input.number,
      orderId: input.orderId,
      customerFirstName: input.customer.firstName,
      items: input.items,
      requestUrl: `${publicBaseUrl(config)}/order-status/${encodeURIComponent(input.orderId)}/${path}`,
    });
    await deliverEmail(
      { db, jobs },
      emailSender,
      { to: input.customer.email, ...message },
      { reference: acknowledgementReference(input.kind, input.requestId) },
    );
  } catch (error) {
    storeLog.error(`Request ${input.number}: acknowledgement email not handled: ${String(error)}`);
  }
}

export type ReturnLinkOutcome = { status: "sent" } | { status: "rate-limited"; retryAfterMs: number };

/**
 * Emails the order's signed return link to the address used at checkout, on request: the way in that no
 * stranger's wrong guesses can close (they lock the email check, never this), and that reaches no one but
 * the customer. A few an hour per order; each is an email of its own.
 */
export async function sendReturnLink(
  store: Pick<StoreRuntime, "db" | "jobs" | "config" | "emailSender" | "sessionSecret" | "rateLimiter">,
  order: { orderId: string; customer: { email: string; firstName: string } },
): Promise<ReturnLinkOutcome> {
  const limit = await store.rateLimiter.hit(RATE_LIMITS.returnLinkOrder, order.orderId);
  if (!limit.allowed) return { status: "rate-limited", retryAfterMs: limit.retryAfterMs };
  const baseUrl = publicBaseUrl(store.config);
  const message = returnLinkEmail({
    storeName: store.config.STORE_NAME,
    storePhone: store.config.STORE_PHONE,
    storeEmail: store.config.STORE_EMAIL,
    customerFirstName: order.customer.firstName,
    orderId: order.orderId,
    orderUrl: `${baseUrl}/order-status/${encodeURIComponent(order.orderId)}`,
    returnUrl: returnLinkFor(store.sessionSecret, baseUrl, order.orderId),
  });
  await deliverEmail(
    store,
    store.emailSender,
    { to: order.customer.email, ...message },
    { reference: `return-link:${order.orderId}:${randomUUID()}` },
  );
  return { status: "sent" };
}
