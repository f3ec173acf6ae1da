import type { ServiceDeps } from "~/store-runtime";
import type { Config } from "~/config.server";
import { storeLog } from "~/observability/logger.server";
import { deliverEmail } from "~/services/email/deliveries.server";
import { escapeHtml, formatUsd, greetingName, safeHttpUrl, singleLine } from "~/services/email/format";
import { contactLine, emailDocument } from "~/services/email/layout";

/**
 * The returns desk's emails to the customer (issue 41, item 2): approved (authorization number,
 * instructions, label), declined (why), received and refunded. Each goes through the delivery queue
 * under its own reference (`return-approved:{requestId}` ...), so a step sends its email once across
 * double submits, processes and retries; the queue retries a failed send.
 */

export type DeskEmailKind = "return-approved" | "defect-acknowledged" | "return-declined" | "return-refunded";

export interface DeskEmailRequest {
  id: string;
  number: string;
  orderId: string;
  kind: "return" | "defect";
  customer: { email: string; firstName: string };
}

export type DeskEmailDetails =
  | { kind: "return-approved"; authorizationNumber: string; labelUrl: string; labelIsPrintout: boolean; returnAddress: string[] }
  | { kind: "defect-acknowledged" }
  | { kind: "return-declined"; reason: string }
  | { kind: "return-refunded"; amountCents: number; taxCents: number; method: string; isTest: boolean };

/** Ship within this many days of approval (the Return Policy). */
export const SHIP_WITHIN_DAYS = 30;

export function deskEmailReference(kind: DeskEmailKind, requestId: string): string {
  return `${kind}:${requestId}`;
}

export async function sendDeskEmail(
  { db, jobs, config, emailSender }: Pick<ServiceDeps, "db" | "jobs" | "config" | "emailSender">,
  request: DeskEmailRequest,
  details: DeskEmailDetails,
): Promise<void> {
  const email = deskEmail(config, request, details);
  try {
    await deliverEmail(
      { db, jobs },
      emailSender,
      { to: request.customer.email, ...email },
      { reference: deskEmailReference(details.kind, request.id) },
    );
  } catch (error) {
    storeLog.error(`After-sale request ${request.number}: the ${details.kind} email not handled: ${String(error)}`);
  }
}

export function deskEmail(
  config: Pick<Config, "STORE_NAME" | "STORE_PHONE" | "STORE_EMAIL">,
  request: DeskEmailRequest,
  details: DeskEmailDetails,
): { subject: string; text: string; html: string; tag: string } {
  const name = greetingName(request.customer.firstName);
  const { subject, paragraphs, link } = content(request, details);
  const contact = contactLine({ storePhone: config.STORE_PHONE, storeEmail: config.STORE_EMAIL });
  const text = [
    `Hi ${name},`,
    "",
    ...paragraphs.flatMap((paragraph) => [paragraph, ""]),
    ...(link ? [`${link.label}: ${link.url}`, ""] : []),
    contact.text,
    "",
    config.STORE_NAME,
  ].join("\n");
  const linkUrl = link ? safeHttpUrl(link.url) : null;
  const html = emailDocument(`<p>Hi ${escapeHtml(name)},</p>
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
${link && linkUrl ? `<p><a href="${escapeHtml(linkUrl)}">${escapeHtml(link.label)}</a></p>` : ""}
${contact.html}
<p>${escapeHtml(config.STORE_NAME)}</p>`);
  return { subject: singleLine(`${config.STORE_NAME}: ${subject}`), text, html, tag: details.kind };
}

function content(
  request: DeskEmailRequest,
  details: DeskEmailDetails,
): { subject: string; paragraphs: string[]; link: { label: string; url: string } | null } {
  switch (details.kind) {
    case "return-approved":
      return {
        subject: `return ${request.number} approved (${details.authorizationNumber})`,
        paragraphs: [
          `Your return ${request.number} for order ${request.orderId} is approved. Your return authorization number is ${details.authorizationNumber}.`,
          `Please ship the items within ${SHIP_WITHIN_DAYS} days of today, in their original packaging, and write ${details.authorizationNumber} clearly on the outside of the box. Returns sent without this number are not refunded.`,
          details.labelIsPrintout
            ? `Send the parcel with the carrier of your choice to: ${details.returnAddress.join(", ")}. The page below has these instructions to print and put in the box.`
            : "Print the prepaid return label below and stick it on the box; its cost is deducted from your refund, as our Return Policy says.",
          "Once we receive the items, we refund them, less the cost of shipping both ways, to the card or account you paid with.",
        ],
        link: { label: details.labelIsPrintout ? "Printable return instructions" : "Your return label", url: details.labelUrl },
      };
    case "defect-acknowledged":
      return {
        subject: `defect claim ${request.number} received`,
        paragraphs: [
          `We have reviewed your defect claim ${request.number} for order ${request.orderId} and passed it to the manufacturer under its warranty.`,
          "Repairs and replacements follow the terms of the manufacturer's warranty; labor costs are not reimbursed. We will write to you with the manufacturer's answer. Please keep the product and its packaging until then.",
        ],
        link: null,
      };
    case "return-declined":
      return {
        subject: `${request.kind === "defect" ? "defect claim" : "return"} ${request.number} declined`,
        paragraphs: [
          `We are sorry: we cannot accept your ${request.kind === "defect" ? "defect claim" : "return"} ${request.number} for order ${request.orderId}.`,
          `Why: ${details.reason}`,
          "If you think this is a mistake, reply to this email or call us and we will look at it again.",
        ],
        link: null,
      };
    case "return-refunded":
      return {
        subject: `return ${request.number} received and refunded`,
        paragraphs: [
          `We have received the items of your return ${request.number} for order ${request.orderId}, and refunded ${formatUsd(details.amountCents)}${details.taxCents > 0 ? `, including ${formatUsd(details.taxCents)} of sales tax,` : ""} less the cost of shipping both ways as our Return Policy says.`,
          details.isTest
            ? "This order was paid on the store's test payment page: no money moved, so nothing reaches your account."
            : `The refund goes back to the ${details.method} you paid with; banks usually show it within 5 to 10 business days.`,
        ],
        link: null,
      };
  }
}
