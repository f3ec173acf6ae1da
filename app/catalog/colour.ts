import type { Specification } from "./product";

/**
 * A product's colour as the catalogue gives it: the colour its title names
 * ("... in Raspberry Red - ALXE-56BFGC-LP-S3027", "Chaise Lounge - Granite Grey"),
 * else its `Primary Color` or `Finish` specification. The name is what the card's
 * facts line says; the swatch is what the drawing is painted in.
 */
export interface ProductColour {
  /** As the catalogue words it, e.g. `Raspberry Red`, `Signal White Matte`, `Stainless Steel`. */
  name: string;
  /** A CSS colour for the drawing; `null` for stainless steel and other bare-metal finishes (drawn as steel). */
  swatch: string | null;
  /** The colour names a part (a control panel, a lid), not the body: the drawing paints only that part. */
  part: boolean;
}

/** Known colour names, most specific first (a name is matched as whole words, case-insensitively). */
const SWATCHES: ReadonlyArray<readonly [string, string | null]> = [
  ["black stainless steel", "#3a3d42"],
  ["stainless steel", null],
  ["stainless", null],
  ["silver", null],
  ["steel", null],
  ["jet black", "#151618"],
  ["black lava", "#2b2624"],
  ["matte black", "#26282b"],
  ["black", "#202327"],
  ["anthracite", "#383e42"],
  ["phantom", "#3b3f45"],
  ["dark basalt", "#4a4a48"],
  ["light basalt", "#a39d95"],
  ["basalt", "#6d6a66"],
  ["smoke", "#707273"],
  ["granite grey", "#676b6e"],
  ["granite gray", "#676b6e"],
  ["light grey", "#b9bec2"],
  ["light gray", "#b9bec2"],
  ["signal gray", "#8d9295"],
  ["signal grey", "#8d9295"],
  ["greige", "#b5aa9a"],
  ["gray", "#8f9497"],
  ["grey", "#8f9497"],
  ["ash", "#b2b0aa"],
  ["limestone", "#d8d2c2"],
  ["cafe blanco", "#e9e1d3"],
  ["vanilla", "#efe3c0"],
  ["signal white", "#f1f1ec"],
  ["white", "#f3f3f0"],
  ["cloud", "#e3e6e9"],
  ["frost", "#eaf1f5"],
  ["sandstone", "#d7c4a3"],
  ["beige", "#d9c9a8"],
  ["natural", "#c8a877"],
  ["french barrel oak", "#8a6a4a"],
  ["silver pine", "#9aa39a"],
  ["chocolate", "#4b3022"],
  ["brown", "#6b4a32"],
  ["rose gold", "#c98f7a"],
  ["copper", "#b8733a"],
  ["raspberry red", "#a3213b"],
  ["carmine red", "#a0201b"],
  ["red", "#c0392b"],
  ["luminous orange", "#f0552c"],
  ["orange", "#e67e22"],
  ["traffic yellow", "#f4b400"],
  ["yellow", "#f1c40f"],
  ["light green", "#7fb77e"],
  ["sage green", "#9caf88"],
  ["green", "#2e8b57"],
  ["ultramarine blue", "#233f8f"],
  ["blue lilac", "#6c6ea0"],
  ["light blue", "#8ec3e6"],
  ["sky blue", "#7cc0e8"],
  ["dark blue", "#1d3557"],
  ["blue", "#2e5cb8"],
  ["purple", "#6c3483"],
];

const PATTERNS = SWATCHES.map(([name, swatch]) => [new RegExp(`\\b${name.replace(/ /g, "\\s+")}\\b`, "i"), swatch] as const);

/** The swatch of the first known colour a text names, or undefined when it names none. */
function swatchOf(text: string): string | null | undefined {
  for (const [pattern, swatch] of PATTERNS) if (pattern.test(text)) return swatch;
  return undefined;
}

/** A phrase that is a colour: a few capitalised words naming a known colour (not a model number, not a size). */
function asColourPhrase(phrase: string): ProductColour | null {
  const clean = phrase.replace(/\s+w\/.*$/i, "").replace(/\s+/g, " ").trim();
  if (clean === "" || clean.split(" ").length > 4 || /\d/.test(clean)) return null;
  const swatch = swatchOf(clean);
  if (swatch === undefined) return null;
  return { name: clean, swatch, part: /\b(?:panel|lid|handle|trim|net)\b/i.test(clean) };
}

/** The colour the title names: "... in Raspberry Red - MODEL", "... in Ash by The Outdoor Plus", "... Lounge - Granite Grey". */
export function titleColour(title: string): ProductColour | null {
  const inPhrase = /\sin\s+([A-Z][\w/&]*(?:\s+[A-Z][\w/&]*){0,3})\s*(?:\s[-–]\s|\s[bB]y\s|\(|$)/.exec(title);
  const fromIn = inPhrase ? asColourPhrase(inPhrase[1] ?? "") : null;
  if (fromIn) return fromIn;
  const segments = title.split(/\s*[-–]\s+|\s+[-–]\s*/).slice(1);
  for (const segment of segments) {
    const colour = asColourPhrase(segment);
    if (colour) return colour;
  }
  return null;
}

const COLOUR_SPECS = ["Primary Color", "Finish", "Color", "Cabinet Color"];

/** The product's colour: the title's, else the specifications'; null when the catalogue gives none. */
export function productColour(title: string, specifications: readonly Specification[] = []): ProductColour | null {
  const fromTitle = titleColour(title);
  if (fromTitle) return fromTitle;
  for (const wanted of COLOUR_SPECS) {
    for (const entry of specifications) {
      const value = entry[wanted]?.trim();
      if (!value) continue;
      const swatch = swatchOf(value);
      if (swatch !== undefined) return { name: value, swatch, part: false };
    }
  }
  return null;
}
