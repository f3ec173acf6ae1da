import { isGasProduct, type CategoryFamily } from "../family";
import type { DescriptionInput, Facts } from "./facts";

/**
 * The legal section of a description: its heading line, its lines (always
 * shown as written), and splitting a stored description at the heading.
 */

/** Heading line that separates the description body from the legal section. */
export const LEGAL_MARKER = "Legal Disclaimers and Warnings";

/** Splits a description at the marker line: body (before) and legal (after). */
export function splitDescription(text: string): { body: string; legal: string } {
  const lines = text.split(/\r?\n/);
  const index = lines.findIndex((line) => line.trim() === LEGAL_MARKER);
  if (index < 0) return { body: text.trim(), legal: "" };
  return {
    body: lines.slice(0, index).join("\n").trim(),
    legal: lines
      .slice(index + 1)
      .join("\n")
      .trim(),
  };
}

export function legalSection(product: DescriptionInput, family: CategoryFamily, f: Facts): string[] {
  const gas = family !== "seasoning" && isGasProduct(product);
  const electric =
    family !== "seasoning" &&
    (f.volts !== undefined || /\belectric\b/i.test(product.Title) || /electric/i.test(f.fuel ?? ""));
  const burnsFuel = ["grill", "griddle", "kamado", "pizza-oven", "heater", "fire-pit"].includes(family);
  const lines: string[] = [];
  if (family === "seasoning") {
    lines.push(
      "California Proposition 65: for information about chemicals in foods, see www.P65Warnings.ca.gov/food.",
      "Food product: read the ingredient and allergen statement before use. Store sealed in a cool, dry place."
    );
  } else {
    const chemicals = burnsFuel ? "lead and, when fuel is burned, carbon monoxide and soot" : "lead";
    lines.push(
      `California Proposition 65 WARNING: This product can expose you to chemicals including ${chemicals}, which are known to the State of California to cause cancer and birth defects or other reproductive harm. For more information go to www.P65Warnings.ca.gov.`
    );
  }
  if (gas) {
    lines.push(
      "Gas appliance: installation must be carried out by a qualified, licensed installer in accordance with the manufacturer's instructions and all local codes. Confirm the fuel type (natural gas or propane) before ordering; conversion may require a kit. For outdoor use only."
    );
  }
  if (electric) {
    lines.push(
      "Electrical connection: use a properly grounded, GFCI-protected outdoor circuit installed by a licensed electrician where required by local code."
    );
  }
  if (burnsFuel) {
    lines.push(
      "Keep the clearances to combustible materials stated by the manufacturer, and never leave a lit appliance unattended."
    );
  }
  lines.push(
    "Product images are illustrations for reference only and may not show the exact product, color, finish or included accessories.",
    "Specifications, dimensions and features may change without notice; confirm critical details (including cut-out sizes) with the manufacturer's documentation before purchase or installation."
  );
  if (family !== "seasoning") {
    lines.push(
      "Warranty coverage is provided by the manufacturer under its own terms; see our defective product policy for how claims are handled."
    );
  }
  return lines;
}
