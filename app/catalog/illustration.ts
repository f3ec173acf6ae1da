import type { CatalogProduct } from "./product";
import { brandDisplayName } from "./product";
import { categoryFamily, titleHead, type CategoryFamily } from "./family";
import { stableHash } from "./hash";

export { categoryFamily, CATEGORY_FAMILIES, type CategoryFamily } from "./family";
export { displayImageUrl } from "./image-url";

/**
 * Product pictures are our own drawings: the raw catalog has no photos,
 * only `image_count`. Each product has `image_count` views served at
 * imagePath(brand, Id, n); the route renders them with renderProductSvg.
 */

/** `/images/products/{brand}/{encodeURIComponent(Id)}/{n}.svg` (used by importer and app). */
export function imagePath(brand: string, id: string, n: number): string {
  return `/images/products/${brand}/${encodeURIComponent(id)}/${n}.svg`;
}

/** All view paths for a product, n = 1..imageCount (at least one). */
export function imagePaths(brand: string, id: string, imageCount: number): string[] {
  const count = Number.isInteger(imageCount) && imageCount >= 1 ? imageCount : 1;
  return Array.from({ length: count }, (_, i) => imagePath(brand, id, i + 1));
}

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

const ACCENTS = ["#c0392b", "#d35400", "#2e86c1", "#16a085", "#8e44ad", "#b7950b", "#34495e", "#a93226"];
const STEEL = "#c3c9d1";
const STEEL_DARK = "#8a939e";
const CHARCOAL = "#2f343b";
const SLATE = "#55595f";
const WOOD = "#8a5a2b";
const FLAME = "#f39c12";
const FLAME_CORE = "#f7dc6f";

function wheels(): string {
  return `<circle cx="190" cy="505" r="14" fill="${CHARCOAL}"/><circle cx="410" cy="505" r="14" fill="${CHARCOAL}"/>`;
}

function knobs(count: number, y: number, from: number, to: number, accent: string): string {
  let out = "";
  for (let i = 0; i < count; i += 1) {
    const x = Math.round(from + ((to - from) * i) / Math.max(count - 1, 1));
    out += `<circle cx="${x}" cy="${y}" r="10" fill="${CHARCOAL}"/><circle cx="${x}" cy="${
      y - 5
    }" r="2.5" fill="${accent}"/>`;
  }
  return out;
}

function drawGrill(a: string): string {
  let grates = "";
  for (let x = 172; x <= 428; x += 16) grates += `M${x} 284V298`;
  return (
    `<rect x="90" y="298" width="80" height="12" fill="${STEEL_DARK}"/><rect x="430" y="298" width="80" height="12" fill="${STEEL_DARK}"/>` +
    `<path d="M160 280V222Q160 172 212 172H388Q440 172 440 222V280Z" fill="${STEEL}" stroke="${STEEL_DARK}" stroke-width="4"/>` +
    `<rect x="160" y="254" width="280" height="10" fill="${a}"/><rect x="230" y="230" width="140" height="10" rx="5" fill="${CHARCOAL}"/>` +
    `<circle cx="300" cy="204" r="12" fill="#fff" stroke="${CHARCOAL}" stroke-width="3"/>` +
    `<rect x="160" y="281" width="280" height="19" fill="${CHARCOAL}"/><path d="${grates}" stroke="${STEEL_DARK}" stroke-width="4"/>` +
    `<rect x="150" y="300" width="300" height="40" rx="4" fill="${STEEL}"/>${knobs(5, 321, 190, 410, a)}` +
    `<rect x="170" y="340" width="260" height="150" rx="6" fill="${STEEL_DARK}"/>` +
    `<rect x="182" y="352" width="114" height="126" rx="4" fill="${STEEL}"/><rect x="304" y="352" width="114" height="126" rx="4" fill="${STEEL}"/>` +
    `<rect x="280" y="370" width="6" height="90" rx="3" fill="${CHARCOAL}"/><rect x="314" y="370" width="6" height="90" rx="3" fill="${CHARCOAL}"/>` +
    wheels()
  );
}

function drawGriddle(a: string): string {
  return (
    `<rect x="60" y="268" width="72" height="10" fill="${STEEL_DARK}"/><rect x="468" y="268" width="72" height="10" fill="${STEEL_DARK}"/>` +
    `<rect x="130" y="258" width="340" height="22" rx="3" fill="${SLATE}"/><rect x="130" y="258" width="340" height="5" fill="${a}"/>` +
    `<rect x="140" y="280" width="320" height="52" rx="4" fill="${CHARCOAL}"/>${knobs(4, 308, 200, 400, a).replace(
      /fill="#2f343b"/g,
      `fill="${STEEL}"`
    )}` +
    `<rect x="160" y="332" width="12" height="160" fill="${CHARCOAL}"/><rect x="428" y="332" width="12" height="160" fill="${CHARCOAL}"/>` +
    `<rect x="160" y="450" width="280" height="10" fill="${STEEL_DARK}"/>` +
    `<path d="M230 240L300 200" stroke="${STEEL_DARK}" stroke-width="6"/><rect x="292" y="186" width="40" height="22" rx="3" fill="${STEEL}"/>` +
    wheels()
  );
}

function drawKamado(a: string): string {
  return (
    `<path d="M225 420L190 505M375 420L410 505M300 440V505" stroke="${CHARCOAL}" stroke-width="10"/>` +
    `<rect x="88" y="352" width="92" height="12" rx="4" fill="${WOOD}"/><rect x="420" y="352" width="92" height="12" rx="4" fill="${WOOD}"/>` +
    `<ellipse cx="300" cy="320" rx="122" ry="132" fill="${a}"/>` +
    `<ellipse cx="258" cy="270" rx="24" ry="52" fill="#fff" opacity=".18"/>` +
    `<path d="M180 300Q300 332 420 300" stroke="${CHARCOAL}" stroke-width="9" fill="none"/>` +
    `<rect x="262" y="312" width="76" height="12" rx="6" fill="${WOOD}"/>` +
    `<rect x="280" y="178" width="40" height="24" rx="6" fill="${CHARCOAL}"/><ellipse cx="300" cy="178" rx="26" ry="8" fill="${SLATE}"/>` +
    `<circle cx="300" cy="244" r="14" fill="#fff" stroke="${CHARCOAL}" stroke-width="3"/>` +
    `<rect x="275" y="392" width="50" height="24" rx="3" fill="${STEEL}"/>`
  );
}

function drawPizzaOven(a: string): string {
  return (
    `<rect x="150" y="410" width="300" height="88" rx="6" fill="${STEEL_DARK}"/><rect x="170" y="430" width="260" height="10" fill="${STEEL}"/>` +
    `<rect x="334" y="150" width="28" height="86" fill="${SLATE}"/><rect x="326" y="142" width="44" height="12" rx="3" fill="${CHARCOAL}"/>` +
    `<path d="M140 410Q140 222 300 212Q460 222 460 410Z" fill="${a}"/>` +
    `<path d="M230 410V362Q230 310 300 310Q370 310 370 362V410Z" fill="${CHARCOAL}"/>` +
    `<path d="M252 410Q262 366 282 384Q292 338 306 378Q322 356 346 410Z" fill="${FLAME}"/>` +
    `<path d="M276 410Q284 384 298 392Q308 372 320 410Z" fill="${FLAME_CORE}"/>` +
    `<circle cx="300" cy="268" r="13" fill="#fff" stroke="${CHARCOAL}" stroke-width="3"/>`
  );
}

function drawHeater(a: string, mounted: boolean): string {
  if (mounted) {
    return (
      `<rect x="120" y="150" width="360" height="24" fill="${STEEL}"/><rect x="290" y="174" width="20" height="60" fill="${STEEL_DARK}"/>` +
      `<rect x="110" y="234" width="380" height="90" rx="10" fill="${CHARCOAL}"/><rect x="110" y="234" width="380" height="8" fill="${a}"/>` +
      `<rect x="134" y="258" width="332" height="44" rx="4" fill="#e74c3c"/><rect x="134" y="272" width="332" height="14" fill="${FLAME}"/>` +
      `<path d="M170 360q15 20 0 40t0 40M240 360q15 20 0 40t0 40M310 360q15 20 0 40t0 40M380 360q15 20 0 40t0 40M450 360q15 20 0 40t0 40" stroke="${FLAME}" stroke-width="5" fill="none" opacity=".7"/>`
    );
  }
  return (
    `<ellipse cx="300" cy="500" rx="82" ry="16" fill="${CHARCOAL}"/><rect x="250" y="468" width="100" height="32" rx="6" fill="${SLATE}"/>` +
    `<rect x="292" y="236" width="16" height="236" fill="${STEEL_DARK}"/>` +
    `<rect x="268" y="200" width="64" height="52" rx="8" fill="${STEEL}"/><rect x="278" y="212" width="44" height="28" fill="#e74c3c"/>` +
    `<path d="M160 202L300 148L440 202Z" fill="${a}"/>` +
    `<path d="M240 262q-14 18 0 36t0 36M360 262q14 18 0 36t0 36" stroke="${FLAME}" stroke-width="5" fill="none" opacity=".7"/>`
  );
}

function drawFirePit(a: string): string {
  return (
    `<rect x="258" y="462" width="84" height="36" fill="${SLATE}"/><ellipse cx="300" cy="500" rx="96" ry="12" fill="${CHARCOAL}"/>` +
    `<path d="M300 360Q228 300 262 226Q272 276 292 270Q276 214 318 168Q312 236 346 262Q356 232 350 210Q392 282 300 360Z" fill="${FLAME}"/>` +
    `<path d="M300 360Q262 322 284 280Q292 310 304 306Q300 270 326 246Q326 296 338 312Q330 340 300 360Z" fill="${FLAME_CORE}"/>` +
    `<path d="M150 360Q160 470 300 474Q440 470 450 360Z" fill="${a}"/>` +
    `<ellipse cx="300" cy="360" rx="152" ry="22" fill="${SLATE}"/><ellipse cx="300" cy="358" rx="132" ry="14" fill="${CHARCOAL}"/>`
  );
}

function drawRefrigerator(a: string): string {
  let bottles = "";
  for (let i = 0; i < 5; i += 1) {
    const x = 226 + i * 30;
    bottles += `<rect x="${x}" y="242" width="16" height="50" rx="5" fill="${
      i % 2 === 0 ? a : STEEL
    }"/><rect x="${x}" y="336" width="16" height="50" rx="5" fill="${i % 2 === 1 ? a : STEEL}"/>`;
  }
  return (
    `<rect x="188" y="168" width="224" height="324" rx="8" fill="${STEEL}" stroke="${STEEL_DARK}" stroke-width="4"/>` +
    `<rect x="208" y="192" width="172" height="244" rx="4" fill="${CHARCOAL}"/>` +
    `<path d="M212 300H376M212 396H376" stroke="${STEEL_DARK}" stroke-width="4"/>${bottles}` +
    `<rect x="390" y="200" width="8" height="228" rx="4" fill="${CHARCOAL}"/>` +
    `<rect x="200" y="450" width="200" height="30" fill="${STEEL_DARK}"/><path d="M220 465H380" stroke="${CHARCOAL}" stroke-width="3" stroke-dasharray="10 6"/>`
  );
}

function drawCabinet(a: string): string {
  return (
    `<rect x="128" y="188" width="344" height="304" rx="6" fill="${STEEL_DARK}"/>` +
    `<rect x="144" y="204" width="150" height="272" rx="4" fill="${STEEL}"/><rect x="272" y="250" width="8" height="180" rx="4" fill="${CHARCOAL}"/>` +
    `<rect x="308" y="204" width="148" height="82" rx="4" fill="${STEEL}"/><rect x="308" y="299" width="148" height="82" rx="4" fill="${STEEL}"/><rect x="308" y="394" width="148" height="82" rx="4" fill="${STEEL}"/>` +
    `<rect x="342" y="236" width="80" height="8" rx="4" fill="${a}"/><rect x="342" y="331" width="80" height="8" rx="4" fill="${a}"/><rect x="342" y="426" width="80" height="8" rx="4" fill="${a}"/>`
  );
}

function drawFurniture(a: string): string {
  return (
    `<rect x="120" y="428" width="10" height="66" fill="${CHARCOAL}"/><rect x="390" y="428" width="10" height="66" fill="${CHARCOAL}"/><rect x="250" y="428" width="10" height="66" fill="${CHARCOAL}"/>` +
    `<rect x="108" y="418" width="304" height="12" rx="4" fill="${CHARCOAL}"/>` +
    `<path d="M108 380H378L462 262Q474 250 486 262L498 276L412 418H108Z" fill="${a}"/>` +
    `<path d="M116 388H376L466 270" stroke="#fff" stroke-width="4" fill="none" opacity=".35"/>` +
    `<ellipse cx="452" cy="292" rx="32" ry="16" fill="#fff" opacity=".85" transform="rotate(-52 452 292)"/>`
  );
}

function drawCover(a: string): string {
  return (
    `<ellipse cx="300" cy="502" rx="170" ry="10" fill="#000" opacity=".12"/>` +
    `<path d="M140 500L158 232Q168 182 230 176H370Q432 182 442 232L460 500Z" fill="${CHARCOAL}"/>` +
    `<path d="M222 262L204 498M300 250V498M378 262L396 498" stroke="${SLATE}" stroke-width="5"/>` +
    `<rect x="140" y="478" width="320" height="22" fill="${a}"/><rect x="262" y="300" width="76" height="30" rx="4" fill="${STEEL}"/>`
  );
}

function drawAccessory(a: string): string {
  let ticks = "";
  for (let i = 0; i < 8; i += 1) {
    const angle = (Math.PI * 2 * i) / 8;
    const x1 = Math.round(420 + Math.cos(angle) * 44);
    const y1 = Math.round(330 + Math.sin(angle) * 44);
    const x2 = Math.round(420 + Math.cos(angle) * 54);
    const y2 = Math.round(330 + Math.sin(angle) * 54);
    ticks += `M${x1} ${y1}L${x2} ${y2}`;
  }
  return (
    `<g transform="rotate(-38 230 340)"><rect x="110" y="320" width="250" height="14" rx="6" fill="${STEEL}"/><rect x="110" y="346" width="250" height="14" rx="6" fill="${STEEL}"/>` +
    `<rect x="96" y="316" width="96" height="48" rx="12" fill="${a}"/><path d="M360 327q24 13 0 26" stroke="${STEEL_DARK}" stroke-width="6" fill="none"/></g>` +
    `<rect x="414" y="386" width="12" height="118" rx="4" fill="${STEEL_DARK}"/>` +
    `<circle cx="420" cy="330" r="64" fill="#fff" stroke="${CHARCOAL}" stroke-width="10"/><path d="${ticks}" stroke="${CHARCOAL}" stroke-width="4"/>` +
    `<path d="M420 330L452 300" stroke="${a}" stroke-width="6" stroke-linecap="round"/><circle cx="420" cy="330" r="7" fill="${CHARCOAL}"/>`
  );
}

function drawSeasoning(): string {
  return (
    `<rect x="214" y="168" width="172" height="52" rx="10" fill="${CHARCOAL}"/>` +
    `<rect x="194" y="214" width="212" height="282" rx="30" fill="#c0392b"/>` +
    `<rect x="206" y="288" width="188" height="124" rx="8" fill="#fff"/>` +
    `<path d="M300 318c-10-16-34-10-30 8c3 12 30 26 30 26s27-14 30-26c4-18-20-24-30-8z" fill="#c0392b"/>` +
    `<text x="300" y="384" text-anchor="middle" font-size="32" font-weight="700" fill="${CHARCOAL}">LOVE RUB</text>` +
    `<text x="300" y="404" text-anchor="middle" font-size="13" letter-spacing="2" fill="${SLATE}">BBQ SEASONING</text>` +
    `<circle cx="240" cy="450" r="4" fill="${FLAME_CORE}"/><circle cx="300" cy="462" r="4" fill="${FLAME_CORE}"/><circle cx="356" cy="446" r="4" fill="${FLAME_CORE}"/>`
  );
}

function drawFamily(family: CategoryFamily, accent: string, title: string): string {
  switch (family) {
    case "grill":
      return drawGrill(accent);
    case "griddle":
      return drawGriddle(accent);
    case "kamado":
      return drawKamado(accent);
    case "pizza-oven":
      return drawPizzaOven(accent);
    case "heater":
      return drawHeater(
        accent,
        /\b(?:mount|mounted|wall|ceiling|smart-heat|tungsten|platinum|eclipse|cobalt)\b/i.test(title)
      );
    case "fire-pit":
      return drawFirePit(accent);
    case "refrigerator":
      return drawRefrigerator(accent);
    case "cabinet":
      return drawCabinet(accent);
    case "furniture":
      return drawFurniture(accent);
    case "cover":
      return drawCover(accent);
    case "seasoning":
      return drawSeasoning();
    case "accessory":
    default:
      return drawAccessory(accent);
  }
}

const VIEW_ANGLES = [0, -4, 4, -2, 2, -6, 6];
const VIEW_ZOOMS = [1, 1.08, 0.92, 1.04, 0.96, 1.12, 0.88];
const VIEW_SHIFTS = [0, -14, 14, -6, 6, -20, 20];
const BACKGROUNDS = ["#f7f8fa", "#faf7f2", "#f4f8f6", "#f8f5f9"];

export type IllustrationInput = Pick<CatalogProduct, "Id" | "brand" | "Model" | "Title" | "Category"> &
  Partial<Pick<CatalogProduct, "image_count">>;

/**
 * A flat, recognisable drawing of the product's family (grill, kamado, pizza
 * oven, ...) with the brand and model written on it. Views differ slightly in
 * angle, zoom, accent color and their "View n of N" label. Deterministic.
 */
export function renderProductSvg(product: IllustrationInput, view: number): string {
  const total =
    Number.isInteger(product.image_count) && (product.image_count ?? 0) >= 1 ? (product.image_count as number) : 1;
  const n = Number.isFinite(view) ? Math.min(Math.max(Math.trunc(view), 1), total) : 1;
  const family = categoryFamily(product);
  const seed = stableHash(`${product.brand}-${product.Id}`);
  const step = n - 1;
  const accent = family === "seasoning" ? "#c0392b" : ACCENTS[(seed + step) % ACCENTS.length] ?? "#c0392b";
  const angle = VIEW_ANGLES[step % VIEW_ANGLES.length] ?? 0;
  const zoom = VIEW_ZOOMS[step % VIEW_ZOOMS.length] ?? 1;
  const shift = VIEW_SHIFTS[step % VIEW_SHIFTS.length] ?? 0;
  const background = BACKGROUNDS[(seed + step) % BACKGROUNDS.length] ?? "#f7f8fa";
  const brandName = brandDisplayName(product.brand);
  const model = product.Model.trim() !== "" ? product.Model : titleHead(product.Title);
  const label = `${brandName} – ${family.replace("-", " ")}`;
  const transform = `translate(${300 + shift} 340) rotate(${angle}) scale(${zoom}) translate(-300 -340)`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600" width="600" height="600" role="img" aria-label="${escapeXml(
      shorten(label, 80)
    )}" font-family="Helvetica, Arial, sans-serif">` +
    `<rect width="600" height="600" fill="${background}"/>` +
    `<rect x="0" y="0" width="600" height="8" fill="${accent}"/>` +
    `<ellipse cx="300" cy="512" rx="210" ry="18" fill="#000" opacity=".07"/>` +
    `<g transform="${transform}">${drawFamily(family, accent, product.Title)}</g>` +
    `<text x="300" y="64" text-anchor="middle" font-size="30" font-weight="700" fill="${CHARCOAL}">${escapeXml(
      shorten(brandName, 30)
    )}</text>` +
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
