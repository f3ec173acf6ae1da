/**
 * Why domain code refused what was asked (a refund, a return's step, a PayPal order), in its own words: the
 * route that shows the refusal answers it with the status this table gives, so no domain module speaks HTTP.
 */
export type Refusal = "invalid" | "not-found" | "conflict" | "rate-limited" | "provider-refused" | "unavailable";

export const REFUSAL_STATUS: Record<Refusal, 400 | 404 | 409 | 429 | 502 | 503> = {
  invalid: 400,
  "not-found": 404,
  conflict: 409,
  "rate-limited": 429,
  "provider-refused": 502,
  unavailable: 503,
};
