import type { Parcel } from "./types";

/** The seasoning jar's box, stacked by quantity (spec section 9): inches and ounces. */
export function seasoningParcel(quantity: number): Parcel {
  if (!Number.isInteger(quantity) || quantity < 1) {
    throw new RangeError(`Quantity must be a positive whole number, got ${quantity}`);
  }
  return { length: 5.75, width: 2.75, height: 5.75 * quantity, weight: 11.5 * quantity };
}
