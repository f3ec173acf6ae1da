import { z } from "zod";
import { CONTACT_LIMITS, CONTACT_MESSAGES } from "~/contact/contact";
import { contactRateLimitMessage, receiveContactMessage } from "~/contact/contact.server";
import { jsonAction, jsonError, jsonResponse, methodNotAllowed, tooManyRequests } from "~/utils/json-route.server";

/**
 * Spec section 7: `POST /contactForm { data: { name, email, phone, message } }`,
 * handled by the same module as the /contact page (validation, limit, storing, email).
 */
const field = (max: number) => z.string().max(max * 2);
const payload = z.strictObject({
  data: z.strictObject({
    name: field(CONTACT_LIMITS.name),
    email: field(CONTACT_LIMITS.email),
    phone: field(CONTACT_LIMITS.phone),
    message: field(CONTACT_LIMITS.message),
  }),
});

export const loader = methodNotAllowed;

export const action = jsonAction(
  payload,
  async ({ context, payload: { data } }) => {
    const outcome = await receiveContactMessage(context.store, context.clientAddress, data);
    switch (outcome.status) {
      case "sent":
      case "bot":
        return jsonResponse({ message: CONTACT_MESSAGES.success }, 201);
      case "invalid":
        return jsonError(400, Object.values(outcome.errors)[0] ?? "Please check the form.", { errors: outcome.errors });
      case "rate-limited":
        return tooManyRequests(outcome, contactRateLimitMessage(outcome.retryAfterMs));
      case "failed":
        return jsonError(503, CONTACT_MESSAGES.failed);
    }
  },
  { maxBytes: 32 * 1024 },
);
