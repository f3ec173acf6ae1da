import { groupThousands, isNegative } from "./format";

/**
 * A number as `toLocaleString("en-US")` writes it ("60,000", "1,234.568"): grouped thousands, at most three
 * decimals rounded half away from zero from the number's shortest decimal form, the same string
 * (number-format.test.ts), without Intl (see formatUsd). A module of its own: the pages every shopper
 * loads show no such numbers, only prices.
 */
export function formatNumber(value: number): string {
  const shortest = String(Math.abs(value));
  if (!Number.isFinite(value) || shortest.includes("e")) return value.toLocaleString("en-US");
  let [whole, fraction = ""] = shortest.split(".");
  if (fraction.length > 3) {
    const digits = String(BigInt(whole + fraction.slice(0, 3)) + (fraction[3] >= "5" ? 1n : 0n)).padStart(4, "0");
    [whole, fraction] = [digits.slice(0, -3), digits.slice(-3)];
  }
  fraction = fraction.replace(/0+$/, "");
  return `${isNegative(value) ? "-" : ""}${groupThousands(whole)}${fraction ? `.${fraction}` : ""}`;
}
