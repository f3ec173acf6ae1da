import type { Parcel } from "./types";

/** The seasoning jar's box, stacked by quantity (spec section 9): inches and ounces. */
export function seasoningParcel(quantity: number): Parcel {
  if (!Number.isInteger(quantity) || quantity < 1) {
    throw new RangeError(`Quantity must be a positive whole number, got ${quantity}`);
  }
  return { length: 5.75, width: 2.75, height: 5.75 * quantity, weight: 11.5 * quantity };
}

/**
 * The box a product's parcel is quoted with when it has no size and weight in the catalog:
 * 12 x 12 x 6 inches and 5 pounds (80 ounces), about a boxed grill accessory.
 */
export const DEFAULT_PRODUCT_PARCEL: Parcel = { length: 12, width: 12, height: 6, weight: 80 };

/** The catalog's `Width`, `Depth`, `Height` (e.g. `12.5"`) and `Weight` (e.g. `11 lbs`) of a product. */
export type ProductDimensions = Partial<Record<"Width" | "Depth" | "Height" | "Weight", string>>;

/**
 * A product's own parcel, stacked by quantity: its catalog size in inches and weight in pounds
 * (turned into ounces). Any measure that is missing or unreadable takes the default box's.
 */
export function productParcel(dimensions: ProductDimensions, quantity: number): Parcel {
  if (!Number.isInteger(quantity) || quantity < 1) {
    throw new RangeError(`Quantity must be a positive whole number, got ${quantity}`);
  }
  const length = measure(dimensions.Depth) ?? DEFAULT_PRODUCT_PARCEL.length;
  const width = measure(dimensions.Width) ?? DEFAULT_PRODUCT_PARCEL.width;
  const height = measure(dimensions.Height) ?? DEFAULT_PRODUCT_PARCEL.height;
  const pounds = measure(dimensions.Weight);
  const weight = pounds === null ? DEFAULT_PRODUCT_PARCEL.weight : Math.round(pounds * 16 * 100) / 100;
  return { length, width, height: Math.round(height * quantity * 100) / 100, weight: Math.round(weight * quantity * 100) / 100 };
}

/** The leading positive number of a catalog measure (`12.5"`, `11 lbs`), or null. */
function measure(value: string | undefined): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)/.exec(value ?? "");
  const number = match ? Number(match[1]) : Number.NaN;
  return Number.isFinite(number) && number > 0 ? number : null;
}
