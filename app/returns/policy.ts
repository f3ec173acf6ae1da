import type { AfterSaleKind, ReturnReason } from "~/db/schema";
import { formatDate } from "~/utils/format";
import { STRICT_BRAND_NAME, type ProductReturnFacts } from "./product-facts";

/**
 * The Return Policy and the Defective Product Policy as rules (spec section 1; ADR 023;
 * docs/returns.md): a pure function from the order, its products' facts, the request, the lines
 * other requests still hold and the time, to "allowed" or every refusal in words a customer can act
 * on. The server runs it inside the transaction that writes the request, with the order row locked.
 *
 * Returns:
 * - only once the order is delivered; counted from `delivered_at`: 30 days, and 48 hours for an item
 *   that arrived damaged or is the wrong item;
 * - not custom, made-to-order, special-order, clearance or non-returnable items (the brand with its
 *   own rules: nothing of it, being made to order) — unless the item arrived damaged or wrong and that
 *   is reported within the 48 hours: that is the store's mistake, not a change of mind;
 * - a photo for an item shipped by freight, and for damage;
 * - one open request per order line, and never more than was ordered (less what earlier returns took).
 *
 * Defect claims (the manufacturer's warranty): once delivered, with no window of our own (the
 * warranty's period is the manufacturer's to judge), a photo or a video link, one open request per line.
 */

export const RETURN_WINDOW_DAYS = 30;
export const REPORT_WINDOW_HOURS = 48;
const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export interface PolicyOrderLine {
  title: string;
  quantity: number;
  facts: ProductReturnFacts;
}

export interface PolicyOrder {
  status: string;
  shippedAt: Date | null;
  deliveredAt: Date | null;
  lines: PolicyOrderLine[];
}

export interface RequestedLine {
  lineIndex: number;
  quantity: number;
}

export interface PolicyRequest {
  kind: AfterSaleKind;
  lines: RequestedLine[];
  reason: ReturnReason;
  photoCount: number;
  /** Defect claims: a link to a video instead of (or besides) photos. */
  hasVideoLink?: boolean;
}

export interface PolicyInput {
  order: PolicyOrder;
  request: PolicyRequest;
  /** Lines held by requests that are still open (requested, approved, received), with their number. */
  openLines: Array<{ lineIndex: number; number: string }>;
  /** Quantities of each line already taken back by earlier returns that were refunded. */
  returnedQuantities?: ReadonlyMap<number, number>;
  now: Date;
}

export type PolicyDecision = { allowed: true } | { allowed: false; refusals: string[] };

export const POLICY_MESSAGES = {
  notDeliveredReturn: "You can request a return once your order has been delivered.",
  notDeliveredDefect: "You can report a defect once your order has been delivered.",
  cancelled: "This order was cancelled, so there is nothing to send back. If you have questions, please contact us.",
  noLines: "Please choose at least one item and how many.",
  notOnOrder: "That item is not part of this order. Please choose from the items listed.",
  duplicateLine: "Each item can be chosen once. Please choose how many instead.",
  quantity: (title: string, most: number) =>
    most === 0 ? `${title} has already been returned.` : `You can choose at most ${most} of ${title}.`,
  returnWindow: (deliveredAt: Date) =>
    `Returns must be requested within ${RETURN_WINDOW_DAYS} days of delivery, and this order was delivered on ${formatDate(deliveredAt)}.`,
  reportWindow: (deliveredAt: Date) =>
    `Damaged or wrong items must be reported within ${REPORT_WINDOW_HOURS} hours of delivery, and this order was delivered on ${formatDate(deliveredAt)}. If the item is defective, please report a defect instead.`,
  notReturnable: (title: string, why: string) =>
    `${title} ${why}, so it cannot be returned. If it arrived damaged, is the wrong item or is defective, please tell us within ${REPORT_WINDOW_HOURS} hours of delivery or report a defect.`,
  strictBrand: (title: string) =>
    `${title} is made to order by ${STRICT_BRAND_NAME}, which accepts no returns of made-to-order items or items with custom features. A damaged or wrong delivery must be reported within ${REPORT_WINDOW_HOURS} hours of delivery; a defect can be reported at any time.`,
  freightPhoto: (title: string) => `${title} ships by freight: please add a photo of it in its packaging.`,
  damagePhoto: "Please add a photo that shows the damage.",
  defectEvidence: "Please add a photo or a link to a video that shows the defect.",
  openRequest: (title: string, number: string) => `${title} already has an open request (${number}). We will be in touch about it.`,
} as const;

/** Why an item cannot be returned for a change of mind, or null if it can. */
function notReturnableBecause(facts: ProductReturnFacts): string | null {
  if (facts.custom) return "is a custom item";
  if (facts.madeToOrder) return "is made to order";
  if (facts.specialOrder) return "is a special-order item";
  if (facts.clearance) return "was sold on clearance";
  if (facts.nonReturnable) return "is marked non-returnable";
  return null;
}

const isDeliveryProblem = (reason: ReturnReason) => reason === "Arrived damaged" || reason === "Wrong item";

export function evaluateRequest({ order, request, openLines, returnedQuantities = new Map(), now }: PolicyInput): PolicyDecision {
  const refusals: string[] = [];
  const refuse = (message: string) => {
    if (!refusals.includes(message)) refusals.push(message);
  };

  if (order.status === "Cancelled") return { allowed: false, refusals: [POLICY_MESSAGES.cancelled] };
  if (!order.deliveredAt) {
    return {
      allowed: false,
      refusals: [request.kind === "return" ? POLICY_MESSAGES.notDeliveredReturn : POLICY_MESSAGES.notDeliveredDefect],
    };
  }
  if (request.lines.length === 0) return { allowed: false, refusals: [POLICY_MESSAGES.noLines] };

  const seen = new Set<number>();
  const chosen: PolicyOrderLine[] = [];
  for (const { lineIndex, quantity } of request.lines) {
    const line = Number.isInteger(lineIndex) ? order.lines[lineIndex] : undefined;
    if (!line) {
      refuse(POLICY_MESSAGES.notOnOrder);
      continue;
    }
    if (seen.has(lineIndex)) {
      refuse(POLICY_MESSAGES.duplicateLine);
      continue;
    }
    seen.add(lineIndex);
    chosen.push(line);
    // Units already returned are the store's again: neither a return nor a defect claim can cover them.
    const most = Math.max(0, line.quantity - (returnedQuantities.get(lineIndex) ?? 0));
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > most) refuse(POLICY_MESSAGES.quantity(line.title, most));
    const open = openLines.find((held) => held.lineIndex === lineIndex);
    if (open) refuse(POLICY_MESSAGES.openRequest(line.title, open.number));
  }

  const sinceDelivery = now.getTime() - order.deliveredAt.getTime();
  if (request.kind === "return") {
    const deliveryProblem = isDeliveryProblem(request.reason);
    if (deliveryProblem && sinceDelivery > REPORT_WINDOW_HOURS * HOUR_MS) refuse(POLICY_MESSAGES.reportWindow(order.deliveredAt));
    if (!deliveryProblem && sinceDelivery > RETURN_WINDOW_DAYS * DAY_MS) refuse(POLICY_MESSAGES.returnWindow(order.deliveredAt));
    for (const line of chosen) {
      if (deliveryProblem) continue;
      if (line.facts.strictBrand) refuse(POLICY_MESSAGES.strictBrand(line.title));
      else {
        const why = notReturnableBecause(line.facts);
        if (why) refuse(POLICY_MESSAGES.notReturnable(line.title, why));
      }
    }
    if (request.photoCount === 0) {
      if (request.reason === "Arrived damaged") refuse(POLICY_MESSAGES.damagePhoto);
      for (const line of chosen) if (line.facts.freight) refuse(POLICY_MESSAGES.freightPhoto(line.title));
    }
  } else if (request.photoCount === 0 && !request.hasVideoLink) {
    refuse(POLICY_MESSAGES.defectEvidence);
  }

  return refusals.length === 0 ? { allowed: true } : { allowed: false, refusals };
}
