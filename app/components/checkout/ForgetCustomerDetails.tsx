import { useEffect } from "react";
import { DETAILS_STORAGE_KEY } from "./CustomerDetailsMirror";

/** The purchase reset's local half: forget the saved details (the thank-you page's, so only its script carries it). */
export function ForgetCustomerDetails() {
  useEffect(() => {
    try {
      window.localStorage.removeItem(DETAILS_STORAGE_KEY);
    } catch {
      // Storage disabled: nothing was kept.
    }
  }, []);
  return null;
}
