import type { CatalogProduct } from "./product";
import { brandDisplayName } from "./product";
import { titleHead } from "./family";
import { stableHash } from "./hash";
import { productKind, type ProductKind } from "./kind";
import { productColour } from "./colour";
import { drawKind, INK, KIND_COLOURS, SLATE, STEEL, STEEL_DARK, type Palette } from "./drawings.server";

/**
 * Product pictures are our own drawings where the store has no photo (ADR 002, ADR 016): one
 * drawing per product kind (kind.ts, drawings.server.ts), in the product's colour (colour.ts),
 * with the brand and model written on it. The route /images/products/{brand}/{Id}/{n}.svg
 * renders view n with renderProductSvg.
 */

/** Escapes text for SVG/XML content and attribute values. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function shorten(text: string, max: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).trimEnd()}…`;
}

const VIEW_ANGLES = [0, -4, 4, -2, 2, -6, 6];
const VIEW_ZOOMS = [1, 1.08, 0.92, 1.04, 0.96, 1.12, 0.88];
const VIEW_SHIFTS = [0, -14, 14, -6, 6, -20, 20];
const BACKGROUNDS = ["#f7f8fa", "#faf7f2", "#f4f8f6", "#f8f5f9"];

export type IllustrationInput = Pick<CatalogProduct, "Id" | "brand" | "Model" | "Title" | "Category"> &
  Partial<Pick<CatalogProduct, "image_count" | "Specifications">>;

/** A hex colour moved towards black (amount < 0) or white (amount > 0). */
function mix(hex: string, amount: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  const target = amount < 0 ? 0 : 255;
  const channel = (shift: number) => {
    const c = (value >> shift) & 255;
    return Math.round(c + (target - c) * Math.abs(amount));
  };
  return `#${((1 << 24) | (channel(16) << 16) | (channel(8) << 8) | channel(0)).toString(16).slice(1)}`;
}

/** The drawing's colours: the product's own where the catalogue gives one, else the kind's usual one. */
export function paletteFor(kind: ProductKind, product: Pick<IllustrationInput, "Title" | "Specifications">): Palette {
  const colour = productColour(product.Title, product.Specifications ?? []);
  const own = colour && !colour.part ? colour.swatch : undefined;
  const body = own === null ? STEEL : (own ?? KIND_COLOURS[kind] ?? STEEL);
  const part = colour?.part && colour.swatch ? colour.swatch : body;
  const steel = body === STEEL;
  return { body, shade: steel ? STEEL_DARK : mix(body, -0.3), light: steel ? "#dde2e8" : mix(body, 0.35), part };
}

/**
 * A flat drawing of the product's kind (a built-in grill head, a grill on a cart, a cart cover, ...)
 * in its colour, with the brand and model written on it. Views differ slightly in angle, zoom,
 * background and their "View n of N" label. Deterministic; `data-kind` names the kind drawn.
 */
export function renderProductSvg(product: IllustrationInput, view: number): string {
  const total =
    Number.isInteger(product.image_count) && (product.image_count ?? 0) >= 1 ? (product.image_count as number) : 1;
  const n = Number.isFinite(view) ? Math.min(Math.max(Math.trunc(view), 1), total) : 1;
  const kind = productKind(product);
  const seed = stableHash(`${product.brand}-${product.Id}`);
  const step = n - 1;
  const palette = paletteFor(kind, product);
  const angle = VIEW_ANGLES[step % VIEW_ANGLES.length] ?? 0;
  const zoom = VIEW_ZOOMS[step % VIEW_ZOOMS.length] ?? 1;
  const shift = VIEW_SHIFTS[step % VIEW_SHIFTS.length] ?? 0;
  const background = BACKGROUNDS[(seed + step) % BACKGROUNDS.length] ?? "#f7f8fa";
  const brandName = brandDisplayName(product.brand);
  const model = product.Model.trim() !== "" ? product.Model : titleHead(product.Title);
  const label = `${brandName} – ${kind.replace(/-/g, " ")}`;
  const transform = `translate(${300 + shift} 340) rotate(${angle}) scale(${zoom}) translate(-300 -340)`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600" width="600" height="600" role="img" aria-label="${escapeXml(
      shorten(label, 80),
    )}" data-kind="${kind}" font-family="Helvetica, Arial, sans-serif">` +
    `<rect width="600" height="600" fill="${background}"/>` +
    `<rect x="0" y="0" width="600" height="8" fill="${palette.shade}"/>` +
    `<ellipse cx="300" cy="512" rx="210" ry="18" fill="#000" opacity=".07"/>` +
    `<g transform="${transform}">${drawKind(kind, palette)}</g>` +
    `<text x="300" y="64" text-anchor="middle" font-size="30" font-weight="700" fill="${INK}">${escapeXml(shorten(brandName, 30))}</text>` +
    `<text x="300" y="98" text-anchor="middle" font-size="20" fill="${SLATE}">${escapeXml(shorten(model, 40))}</text>` +
    `<text x="572" y="578" text-anchor="end" font-size="15" fill="${STEEL_DARK}">View ${n} of ${total}</text>` +
    `<text x="28" y="578" font-size="13" fill="${STEEL_DARK}">Illustration</text>` +
    `</svg>`
  );
}

/** Generic picture for a failed image load. */
export function placeholderSvg(): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600" width="600" height="600" role="img" aria-label="Image unavailable" font-family="Helvetica, Arial, sans-serif">` +
    `<rect width="600" height="600" fill="#f1f2f4"/>` +
    `<rect x="170" y="170" width="260" height="200" rx="14" fill="#fff" stroke="${STEEL}" stroke-width="8"/>` +
    `<circle cx="236" cy="230" r="22" fill="${STEEL}"/>` +
    `<path d="M186 350L266 270L316 320L356 284L414 350Z" fill="${STEEL}"/>` +
    `<text x="300" y="430" text-anchor="middle" font-size="26" fill="${STEEL_DARK}">Image unavailable</text>` +
    `</svg>`
  );
}
