import { useEffect } from "react";
import type { CustomerField } from "~/orders/customer";

/** localStorage key of the customer details, mirrored like the cart (spec section 3: "also kept locally"). */
export const DETAILS_STORAGE_KEY = "checkout-details";

type Details = Partial<Record<CustomerField, string>>;

/**
 * Keeps localStorage["checkout-details"] equal to the details the server holds for the pending
 * checkout. When the server holds none (its cookie gone) and this browser remembers some, they
 * fill the empty fields of the form named by `formSelector`. `details` null with no form: nothing.
 */
export function CustomerDetailsMirror({ details, formSelector }: { details: Details | null; formSelector?: string }) {
  useEffect(() => {
    if (details) {
      writeDetails(details);
      return;
    }
    const form = formSelector ? document.querySelector<HTMLFormElement>(formSelector) : null;
    const remembered = readDetails();
    if (!form || !remembered) return;
    for (const [name, value] of Object.entries(remembered)) {
      const field = form.elements.namedItem(name);
      if ((field instanceof HTMLInputElement || field instanceof HTMLSelectElement) && !field.value && typeof value === "string") {
        field.value = value;
      }
    }
  }, [details, formSelector]);
  return null;
}

function readDetails(): Details | null {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(DETAILS_STORAGE_KEY) ?? "null");
    return value && typeof value === "object" ? (value as Details) : null;
  } catch {
    return null;
  }
}

function writeDetails(details: Details) {
  try {
    window.localStorage.setItem(DETAILS_STORAGE_KEY, JSON.stringify(details));
  } catch {
    // Storage may be full or disabled; the server still holds the details.
  }
}
