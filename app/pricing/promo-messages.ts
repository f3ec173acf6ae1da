/** Shown before payment when this email has already had its first-purchase discount (or another checkout is paying with it). */
export const PROMO_ALREADY_USED_MESSAGE = "LOVERUB10 is for your first purchase, and this email address has already used it.";
