/**
 * Product image URLs, for the server and the browser alike: kept apart from the
 * drawings (illustration.server.ts) and the photo resizer (photos.server.ts), so
 * the browser bundle that shows product images carries neither.
 *
 * A product view is one of two things:
 * - a drawing, `/images/products/{brand}/{Id}/{n}.svg?v={DRAWING_VERSION}`, drawn on request (ADR 002);
 * - a photo, `/images/products/{brand}/{Id}/photo-{n}-{version}-{width}w.{avif|webp|jpg}`, resized from
 *   the file in PRODUCT_PHOTOS_DIR on first request and kept on disk (ADR 016). The catalogue stores
 *   the 640-wide JPEG; the <picture> element offers every width in AVIF and WebP.
 * The route answers only these spellings: it parses an address and builds it back with the functions
 * here, and anything that comes out different is a 404 (another spelling is another cache entry).
 */

/** `/images/products/{brand}/{encodeURIComponent(Id)}/{n}.svg`: the catalogue's own address of view n (used by importer and app). */
export function imagePath(brand: string, id: string, n: number): string {
  return `/images/products/${brand}/${encodeURIComponent(id)}/${n}.svg`;
}

/** All view paths for a product, n = 1..imageCount (at least one). */
export function imagePaths(brand: string, id: string, imageCount: number): string[] {
  const count = Number.isInteger(imageCount) && imageCount >= 1 ? imageCount : 1;
  return Array.from({ length: count }, (_, i) => imagePath(brand, id, i + 1));
}

/**
 * Bumped when the drawings change: a drawing is cached for a year as immutable (ADR 002), so a
 * new drawing needs a new address. 2: one drawing per product kind, in the product's colour.
 */
export const DRAWING_VERSION = 2;

/** The address the store shows for drawing n of a product (imagePath with the drawing version). */
export function drawingUrl(brand: string, id: string, n: number): string {
  return `${imagePath(brand, id, n)}?v=${DRAWING_VERSION}`;
}

/** The widths a photo is offered in (srcset), and the one the catalogue stores and <img> falls back to. */
export const PHOTO_WIDTHS = [160, 320, 480, 640, 960, 1280] as const;
export const PHOTO_DEFAULT_WIDTH = 640;
export const PHOTO_FORMATS = { avif: "image/avif", webp: "image/webp", jpg: "image/jpeg" } as const;
export type PhotoFormat = keyof typeof PHOTO_FORMATS;

/** `photo-{n}-{version}-{width}w.{format}`: the file segment of a photo address (a strict pattern: anything else is not a photo). */
const PHOTO_FILE = /^photo-(\d{1,3})-([0-9a-f]{12})-(\d{2,4})w\.(avif|webp|jpg)$/;
const DRAWING_FILE = /^(\d{1,3})\.svg$/;

export function photoUrl(brand: string, id: string, n: number, version: string, width: number, format: PhotoFormat): string {
  return `/images/products/${brand}/${encodeURIComponent(id)}/photo-${n}-${version}-${width}w.${format}`;
}

export interface PhotoFile {
  n: number;
  version: string;
  width: number;
  format: PhotoFormat;
}

/**
 * The parts of a photo's file segment, or null when it is not one. Loose about spelling (`photo-01-`,
 * `0320w` parse too): the route answers only the address photoUrl builds back from the parts.
 */
export function parsePhotoFile(file: string): PhotoFile | null {
  const match = PHOTO_FILE.exec(file);
  if (!match) return null;
  const [, n, version, width, format] = match;
  return { n: Number(n), version: version ?? "", width: Number(width), format: format as PhotoFormat };
}

/** The view number of a drawing's file segment (`{n}.svg`), or null; as loose as parsePhotoFile. */
export function parseDrawingFile(file: string): number | null {
  const match = DRAWING_FILE.exec(file);
  return match ? Number(match[1]) : null;
}

export interface PhotoSources {
  avif: string;
  webp: string;
  /** The drawing of the same view: what to show when the photo fails to load. */
  drawing: string;
}

/** For a photo address: srcset values in AVIF and WebP, and the drawing of the same view; null for anything else. */
export function photoSources(url: string): PhotoSources | null {
  const slash = url.lastIndexOf("/");
  const photo = parsePhotoFile(url.slice(slash + 1));
  if (!photo || !url.startsWith("/images/products/")) return null;
  const { n, version } = photo;
  const base = `${url.slice(0, slash)}/photo-${n}-${version}-`;
  const srcset = (format: PhotoFormat) => PHOTO_WIDTHS.map((width) => `${base}${width}w.${format} ${width}w`).join(", ");
  return { avif: srcset("avif"), webp: srcset("webp"), drawing: `${url.slice(0, slash)}/${n}.svg?v=${DRAWING_VERSION}` };
}

const RESIZE_PARAMS = new Set(["resize", "width", "height", "w", "h", "fit", "crop", "size", "quality", "dpr"]);

/**
 * The spec's "Image URLs have a resize suffix cut off for display": drops
 * resize query parameters (`?resize=300,300`, `?width=600&height=600`) and a
 * `_100x100` / `-600x600` style size suffix just before the file extension.
 * URLs without such a suffix are returned unchanged.
 */
export function displayImageUrl(url: string): string {
  if (typeof url !== "string" || url === "") return url;
  const hashAt = url.indexOf("#");
  const fragment = hashAt >= 0 ? url.slice(hashAt) : "";
  const withoutFragment = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const queryAt = withoutFragment.indexOf("?");
  let path = queryAt >= 0 ? withoutFragment.slice(0, queryAt) : withoutFragment;
  let query = queryAt >= 0 ? withoutFragment.slice(queryAt + 1) : null;
  let changed = false;
  if (query !== null) {
    const params = query.split("&").filter((param) => param !== "");
    const kept = params.filter((param) => {
      const name = param.split("=")[0] ?? "";
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        decoded = name;
      }
      return !RESIZE_PARAMS.has(decoded.toLowerCase());
    });
    if (kept.length !== params.length) {
      changed = true;
      query = kept.length > 0 ? kept.join("&") : null;
    }
  }
  const trimmedPath = path.replace(/[-_](?:\d{2,5}x\d{2,5}|\d{2,5}x|x\d{2,5})(?=\.[A-Za-z0-9]{2,5}$)/, "");
  if (trimmedPath !== path) {
    changed = true;
    path = trimmedPath;
  }
  if (!changed) return url;
  return `${path}${query !== null ? `?${query}` : ""}${fragment}`;
}
