import { randomInt } from "node:crypto";

/**
 * Order display ids: 10 characters from an alphabet without look-alikes
 * (no 0/O, 1/I/L), drawn with a cryptographic generator: 31^10 ≈ 8e14
 * possibilities, so ids cannot be guessed or enumerated.
 */
export const ORDER_ID_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const ORDER_ID_LENGTH = 10;

export function generateOrderId(): string {
  let id = "";
  for (let i = 0; i < ORDER_ID_LENGTH; i += 1) id += ORDER_ID_ALPHABET[randomInt(ORDER_ID_ALPHABET.length)];
  return id;
}

/** Normalizes what a shopper typed: trims, upper-cases, drops spaces and dashes. */
export function normalizeOrderId(input: string): string {
  return input
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "");
}

export function generateToken(bytes = 18): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  let token = "";
  for (let i = 0; i < (bytes * 4) / 3; i += 1) token += alphabet[randomInt(alphabet.length)];
  return token;
}
