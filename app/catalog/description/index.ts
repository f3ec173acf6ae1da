import { categoryFamily } from "../family";
import { buildParagraph } from "./build-paragraph";
import { collectFacts, type DescriptionInput } from "./facts";
import { familyParagraph } from "./family-paragraph";
import { closing, intro } from "./intro-and-closing";
import { LEGAL_MARKER, legalSection } from "./legal";

/**
 * Product descriptions written in the store's own words from the facts of a
 * record (title, category, specifications). The raw catalog has no
 * descriptions. Text before LEGAL_MARKER is the part that may be sent to the
 * text generator for reformatting; the legal section is always shown as is.
 */

export type { DescriptionInput } from "./facts";
export { LEGAL_MARKER, splitDescription } from "./legal";

/**
 * Composes a description: 3-4 short paragraphs naming the key facts that exist,
 * a blank line, LEGAL_MARKER on its own line, then the legal lines.
 * Deterministic: phrasing variants are chosen with a hash of brand and Id.
 */
export function composeDescription(product: DescriptionInput): string {
  const family = categoryFamily(product);
  const facts = collectFacts(product, family);
  const seed = `${product.brand}-${product.Id}`;
  const paragraphs = [
    intro(product, family, facts, seed),
    familyParagraph(family, facts, seed, product),
    buildParagraph(facts, seed),
    closing(family, facts, seed),
  ]
    .map((paragraph) =>
      paragraph
        .replace(/\s+/g, " ")
        .replace(/\.\.(?=\s|$)/g, ".")
        .trim()
    )
    .filter((paragraph) => paragraph.length > 0);
  return `${paragraphs.join("\n\n")}\n\n${LEGAL_MARKER}\n${legalSection(product, family, facts).join("\n")}`;
}
