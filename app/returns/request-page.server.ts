import type { AppLoadContext } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { RETURN_REASONS, type AfterSaleKind } from "~/db/schema";
import { lookUpOrder } from "~/orders/lookup.server";
import { findOrderByDisplayId } from "~/orders/orders.server";
import { ORDER_LOOKUP_RATE_LIMITED_MESSAGE } from "~/security/messages";
import { RATE_LIMITS, retryAfterSeconds } from "~/security/rate-limit.server";
import { firstErrorPerField, readBodyWithin, requirePost, SHOPPER_FORM_MAX_BYTES } from "~/utils/forms.server";
import { hasProof, proofCookieHeader, proveByEmail, PROOF_MESSAGES, verifyReturnToken } from "./access.server";
import { PHOTO_MAX_COUNT, PHOTO_MESSAGES, processPhoto, type ProcessedPhoto } from "./photos.server";
import { sendAcknowledgement, sendReturnLink } from "./request-emails.server";
import { createAfterSaleRequest, FORM_KEY_PATTERN, newFormKey, requestsOfOrder } from "./requests.server";
import type { AfterSalePageData, AfterSaleActionData } from "./page-data";
import { AFTER_SALE_FORM_MAX_BYTES, afterSaleFormFields, readUploadForm } from "./upload-form.server";

/**
 * The customer's return page (/order-status/{id}/return) and defect claim page
 * (/order-status/{id}/claim), the same steps for both: the order by its Order ID (counted as an
 * order lookup), then proof that it is theirs (access.server.ts), then the request form, and after
 * it the order's requests with their status. Every form is a plain post; every refusal is a message
 * on the page and changes nothing.
 */

const ORDER_NOT_FOUND = "Order not found. Please check your Order ID.";
export const RETURN_SUBMIT_RATE_LIMITED = "Too many forms sent from your connection. Please wait a few minutes and try again.";
const MAX_LINES = 100;

export const REQUEST_FORM_MESSAGES = {
  formKey: "This form is out of date. Please reload the page and send it again.",
  reason: "Please choose a reason.",
  note: "Please keep the note under 2,000 characters.",
  description: "Please describe the problem (at least 10 characters).",
  serialNumber: "Please enter the product's serial number (up to 100 characters; it is on the rating plate).",
  videoUrl: "Please enter a link to the video that starts with https://, or leave it empty.",
} as const;

const returnFields = z.object({
  formKey: z.string().regex(FORM_KEY_PATTERN, REQUEST_FORM_MESSAGES.formKey),
  reason: z.enum(RETURN_REASONS, { message: REQUEST_FORM_MESSAGES.reason }),
  note: z.string().trim().max(2000, REQUEST_FORM_MESSAGES.note).default(""),
});

const claimFields = z.object({
  formKey: z.string().regex(FORM_KEY_PATTERN, REQUEST_FORM_MESSAGES.formKey),
  serialNumber: z
    .string({ message: REQUEST_FORM_MESSAGES.serialNumber })
    .trim()
    .min(1, REQUEST_FORM_MESSAGES.serialNumber)
    .max(100, REQUEST_FORM_MESSAGES.serialNumber),
  note: z
    .string({ message: REQUEST_FORM_MESSAGES.description })
    .trim()
    .min(10, REQUEST_FORM_MESSAGES.description)
    .max(2000, REQUEST_FORM_MESSAGES.note),
  videoUrl: z
    .string()
    .trim()
    .max(500, REQUEST_FORM_MESSAGES.videoUrl)
    .refine((value) => value === "" || /^https:\/\/[^\s<>"]+$/.test(value), REQUEST_FORM_MESSAGES.videoUrl)
    .default(""),
});

type Args = { request: Request; params: { id?: string }; context: AppLoadContext };

const pathOf = (kind: AfterSaleKind, orderId: string) =>
  `/order-status/${encodeURIComponent(orderId)}/${kind === "return" ? "return" : "claim"}`;

export async function afterSalePageLoader(kind: AfterSaleKind, { request, params, context }: Args) {
  const url = new URL(request.url);
  const lookup = await lookUpOrder(context.store, (params.id ?? "").slice(0, 40), context.clientAddress);
  if (lookup.status === "rate-limited") {
    throw new Response(ORDER_LOOKUP_RATE_LIMITED_MESSAGE, {
      status: 429,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(retryAfterSeconds(lookup.retryAfterMs)) },
    });
  }
  if (lookup.status === "not-found")
    throw new Response(ORDER_NOT_FOUND, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const order = lookup.order;
  const path = pathOf(kind, order.orderId);

  let linkError: string | null = null;
  const token = url.searchParams.get("token");
  if (token !== null) {
    const check = verifyReturnToken(context.store.sessionSecret, order.orderId, token);
    if (check.ok) {
      // The token leaves the address bar (and the browser's history) once it has done its work.
      const proof = { via: "link", token } as const;
      throw redirect(path, {
        status: 303,
        headers: { "Set-Cookie": await proofCookieHeader(context.store, request, order.orderId, proof) },
      });
    }
    linkError = check.reason === "expired" ? PROOF_MESSAGES.linkExpired : PROOF_MESSAGES.linkInvalid;
  }

  const stored = await findOrderByDisplayId(context.store.db, order.orderId);
  const full = stored && (await hasProof(context.store, request, stored)) ? stored : null;
  const requests = full ? await requestsOfOrder(context.store.db, order.orderId) : [];
  // `sent` names the request just sent; the page says so only for one of this order's own, to its proven customer.
  const sent = url.searchParams.get("sent");
  const page: AfterSalePageData = {
    kind,
    order,
    linkError,
    proven: full !== null,
    deliveredAt: full?.deliveredAt?.toISOString() ?? null,
    requests,
    formKey: full ? newFormKey() : null,
    sent: requests.some((made) => made.number === sent) ? sent : null,
    maxPhotos: PHOTO_MAX_COUNT,
  };
  return data(page, { status: linkError ? 400 : 200 });
}

function answer(body: AfterSaleActionData, status: number, headers: Record<string, string> = {}) {
  return data(body, { status, headers });
}

/** The quantities chosen: `quantity-{line}` fields with a whole number above 0. */
function chosenLines(fields: Record<string, string>): Array<{ lineIndex: number; quantity: number }> | null {
  const lines: Array<{ lineIndex: number; quantity: number }> = [];
  for (const [name, value] of Object.entries(fields)) {
    const match = /^quantity-(\d{1,3})$/.exec(name);
    if (!match) continue;
    if (!/^\d{1,3}$/.test(value.trim())) return null;
    const quantity = Number(value.trim());
    if (quantity > 0) lines.push({ lineIndex: Number(match[1]), quantity });
  }
  return lines.length > MAX_LINES ? null : lines.sort((a, b) => a.lineIndex - b.lineIndex);
}

export async function afterSalePageAction(kind: AfterSaleKind, { request, params, context }: Args) {
  requirePost(request);
  const { db } = context.store;
  const order = await findOrderByDisplayId(db, (params.id ?? "").slice(0, 40));
  // Photos (16 MB) only from a browser that has proven the order, and at a bounded rate: anyone else's form is read within 64 KB.
  const proven = order !== null && (await hasProof(context.store, request, order));
  if (proven) {
    const limit = await context.store.rateLimiter.hit(RATE_LIMITS.returnSubmit, context.clientAddress);
    if (!limit.allowed) {
      await readBodyWithin(request, 0);
      return answer({ step: "request", errors: { "": RETURN_SUBMIT_RATE_LIMITED } }, 429, {
        "Retry-After": String(retryAfterSeconds(limit.retryAfterMs)),
      });
    }
  }
  const { fields, photos } = await readUploadForm(request, context.store.config, {
    maxBytes: proven ? AFTER_SALE_FORM_MAX_BYTES : SHOPPER_FORM_MAX_BYTES,
    maxFields: afterSaleFormFields(order?.items.length ?? 0),
  });
  if (!order) return answer({ step: "prove", errors: { "": ORDER_NOT_FOUND } }, 404);
  const path = pathOf(kind, order.orderId);

  if (fields.intent === "prove") {
    const email = (fields.email ?? "").slice(0, 320);
    if (!email.trim()) return answer({ step: "prove", errors: { email: PROOF_MESSAGES.emailRequired } }, 400);
    const proof = await proveByEmail(context.store.rateLimiter, {
      orderId: order.orderId,
      customerEmail: order.customer.email,
      email,
      clientAddress: context.clientAddress,
    });
    if (proof.status === "rate-limited") {
      return answer({ step: "prove", errors: { email: PROOF_MESSAGES.rateLimited } }, 429, {
        "Retry-After": String(retryAfterSeconds(proof.retryAfterMs)),
      });
    }
    if (proof.status === "no-match") return answer({ step: "prove", errors: { email: PROOF_MESSAGES.noMatch } }, 400);
    const byEmail = { via: "email", email } as const;
    throw redirect(path, {
      status: 303,
      headers: { "Set-Cookie": await proofCookieHeader(context.store, request, order.orderId, byEmail) },
    });
  }

  if (fields.intent === "send-link") {
    const sent = await sendReturnLink(context.store, order);
    if (sent.status === "rate-limited") {
      return answer({ step: "prove", errors: { "": PROOF_MESSAGES.linkRateLimited } }, 429, {
        "Retry-After": String(retryAfterSeconds(sent.retryAfterMs)),
      });
    }
    return answer({ step: "prove", errors: {}, notice: PROOF_MESSAGES.linkSent }, 200);
  }

  if (fields.intent !== "submit") throw new Response("This form did not say what to do. Please go back and try again.", { status: 400 });
  if (!proven) {
    return answer({ step: "prove", errors: { "": PROOF_MESSAGES.proofRequired } }, 403);
  }

  const parsed = (kind === "return" ? returnFields : claimFields).safeParse(fields);
  const lines = chosenLines(fields);
  const kept = {
    reason: fields.reason ?? "",
    note: fields.note ?? "",
    serialNumber: fields.serialNumber ?? "",
    videoUrl: fields.videoUrl ?? "",
  };
  if (!parsed.success || lines === null) {
    const errors = parsed.success ? {} : firstErrorPerField(parsed.error);
    if (lines === null) errors.lines = "Please choose a quantity from the list for each item.";
    return answer({ step: "request", errors, values: kept }, 400);
  }
  if (photos.length > PHOTO_MAX_COUNT) return answer({ step: "request", errors: { photo: PHOTO_MESSAGES.tooMany }, values: kept }, 400);
  const processed: ProcessedPhoto[] = [];
  for (const upload of photos) {
    const result = await processPhoto(upload);
    if (!result.ok) return answer({ step: "request", errors: { photo: result.message }, values: kept }, 400);
    processed.push(result.photo);
  }

  const values = parsed.data;
  const created = await createAfterSaleRequest(db, {
    kind,
    orderId: order.orderId,
    lines,
    reason: "reason" in values ? values.reason : "Defective",
    note: values.note,
    serialNumber: "serialNumber" in values ? values.serialNumber : null,
    videoUrl: "videoUrl" in values && values.videoUrl ? values.videoUrl : null,
    photos: processed,
    formKey: values.formKey,
  });
  if (created.status === "not-found") return answer({ step: "prove", errors: { "": ORDER_NOT_FOUND } }, 404);
  if (created.status === "refused") return answer({ step: "request", errors: {}, refusals: created.refusals, values: kept }, 400);
  if (created.status === "created") {
    await sendAcknowledgement(context.store, {
      requestId: created.request.id,
      kind,
      number: created.request.number,
      orderId: order.orderId,
      customer: { email: order.customer.email, firstName: order.customer.firstName },
      items: lines.map(({ lineIndex, quantity }) => `${quantity} x ${order.items[lineIndex]?.title ?? "item"}`),
    });
  }
  throw redirect(`${path}?sent=${encodeURIComponent(created.request.number)}`, { status: 303 });
}
