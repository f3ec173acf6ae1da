import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { BRAND_KEYS } from "./brands";
import { drawingUrl, PHOTO_DEFAULT_WIDTH, PHOTO_FORMATS, PHOTO_WIDTHS, photoUrl, type PhotoFile, type PhotoFormat } from "./image-url";
import { log, logError } from "~/observability/logger.server";
import { loadSharp, withImageSlot } from "~/utils/sharp.server";

/**
 * Real product photos with the drawings as the fallback (ADR 016).
 *
 * PRODUCT_PHOTOS_DIR holds `{brand}/{Id}/{n}.{jpg|jpeg|png|webp|avif|tif|tiff}`. It is read once per
 * process (scanPhotos, at start-up): the catalogue load then gives each product with photos the
 * photo addresses instead of its drawings (photoImages). A photo address names the view, a version
 * (from the file's size and time, so a replaced file gets a new address) and the width and format
 * wanted; findPhoto resizes the file with sharp on the first request and keeps the result in
 * PRODUCT_PHOTOS_CACHE_DIR, so later requests (and other processes on the same disk) read it back.
 * A request names a file only through the index: nothing from the URL reaches a file path. A file
 * sharp cannot read is logged once and its view drawn instead until the next start.
 */

export interface PhotoSource {
  /** The view number, as in the file name. */
  n: number;
  /** Absolute path of the original file. */
  file: string;
  /** 12 hex digits from the file's path, size and modification time. */
  version: string;
}

export interface PhotoIndex {
  dir: string;
  /** Product key (`{brand}-{Id}`) -> its photos, by view number. */
  products: ReadonlyMap<string, readonly PhotoSource[]>;
  /** Changes whenever a photo is added, removed or replaced: part of the catalogue load's hash. */
  digest: string;
  photoCount: number;
}

const SOURCE_FILE = /^(\d{1,3})\.(jpe?g|png|webp|avif|tiff?)$/i;
const EXTENSION_ORDER = ["jpg", "jpeg", "png", "webp", "avif", "tif", "tiff"];
const BRANDS: ReadonlySet<string> = new Set(BRAND_KEYS);

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

async function directories(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory() || entry.isSymbolicLink()).map((entry) => entry.name);
}

/** Reads the photo folder: null when it is unset or not a folder. */
export async function scanPhotos(dir: string | undefined): Promise<PhotoIndex | null> {
  if (!dir) return null;
  const root = path.resolve(dir);
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) return null;
  const products = new Map<string, PhotoSource[]>();
  let photoCount = 0;
  for (const brand of (await directories(root)).filter((name) => BRANDS.has(name)).sort()) {
    for (const id of (await directories(path.join(root, brand)).catch(() => [])).sort()) {
      const folder = path.join(root, brand, id);
      const byView = new Map<number, { name: string; rank: number }>();
      for (const name of await readdir(folder).catch(() => [])) {
        const match = SOURCE_FILE.exec(name);
        if (!match) continue;
        const n = Number(match[1]);
        const rank = EXTENSION_ORDER.indexOf((match[2] ?? "").toLowerCase());
        const seen = byView.get(n);
        if (n >= 1 && (!seen || rank < seen.rank)) byView.set(n, { name, rank });
      }
      const sources: PhotoSource[] = [];
      for (const [n, { name }] of [...byView].sort(([a], [b]) => a - b)) {
        const file = path.join(folder, name);
        const fileInfo = await stat(file).catch(() => null);
        if (!fileInfo?.isFile()) continue;
        sources.push({ n, file, version: sha1(`${brand}/${id}/${name}\0${fileInfo.size}\0${fileInfo.mtimeMs}`).slice(0, 12) });
      }
      if (sources.length > 0) {
        products.set(`${brand}-${id}`, sources);
        photoCount += sources.length;
      }
    }
  }
  const digest = sha1([...products].map(([key, sources]) => `${key}:${sources.map((s) => `${s.n}.${s.version}`).join(",")}`).join("\n")).slice(0, 16);
  return { dir: root, products, digest, photoCount };
}

const indexes = new Map<string, Promise<PhotoIndex | null>>();
/** Photo files found broken in this process (path and version): logged once, then not read again. */
const brokenPhotos = new Set<string>();

/** The photo folder's index, read once per process and folder (the start-up reads it first). */
export function photoIndex(dir: string | undefined): Promise<PhotoIndex | null> {
  if (!dir) return Promise.resolve(null);
  let index = indexes.get(dir);
  if (!index) {
    index = scanPhotos(dir);
    indexes.set(dir, index);
    index.catch(() => indexes.delete(dir));
  }
  return index;
}

/** Forgets the indexes read so far, and which photos were broken (tests that change a photo folder). */
export function forgetPhotoIndexes() {
  indexes.clear();
  brokenPhotos.clear();
}

/**
 * The addresses a product shows: its photos (the 640-wide JPEG of each; ProductImage offers every
 * width in AVIF and WebP) when it has any, else its drawings, views 1..imageCount.
 */
export function productImages(photos: PhotoIndex | null, brand: string, id: string, imageCount: number): string[] {
  const sources = photos?.products.get(`${brand}-${id}`);
  if (sources && sources.length > 0) {
    return sources.map((source) => photoUrl(brand, id, source.n, source.version, PHOTO_DEFAULT_WIDTH, "jpg"));
  }
  const count = Number.isInteger(imageCount) && imageCount >= 1 ? imageCount : 1;
  return Array.from({ length: count }, (_, i) => drawingUrl(brand, id, i + 1));
}

const inFlight = new Map<string, Promise<Buffer>>();


async function encode(source: string, width: number, format: PhotoFormat): Promise<Buffer> {
  const sharp = await loadSharp();
  const resized = sharp(source, { limitInputPixels: 60_000_000 }).rotate().resize({ width, withoutEnlargement: true });
  if (format === "avif") return resized.avif({ quality: 55, effort: 2 }).toBuffer();
  if (format === "webp") return resized.webp({ quality: 78 }).toBuffer();
  return resized.flatten({ background: "#ffffff" }).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
}

/** The photo at a width and format: from the disk cache, else resized now (once, however many ask at the same time) and kept. */
async function resizedPhoto(cacheDir: string, source: PhotoSource, width: number, format: PhotoFormat): Promise<Buffer> {
  const name = sha1(`${source.file}\0${source.version}\0${width}\0${format}`);
  const target = path.resolve(cacheDir, name.slice(0, 2), `${name}.${format}`);
  const cached = await readFile(target).catch(() => null);
  if (cached) return cached;
  let pending = inFlight.get(target);
  if (!pending) {
    pending = withImageSlot(async () => {
      const bytes = await encode(source.file, width, format);
      // Written whole under another name, then renamed: another process never reads half a file.
      const partial = `${target}.${process.pid}.${Date.now()}.part`;
      try {
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(partial, bytes);
        await rename(partial, target);
      } catch (error) {
        // A cache that cannot be written costs a resize per request, not the photo.
        logError(`Photo cache ${cacheDir} could not be written`, error);
      }
      return bytes;
    }).finally(() => inFlight.delete(target));
    inFlight.set(target, pending);
  }
  return pending;
}

export type PhotoAnswer =
  | { kind: "photo"; bytes: Buffer; contentType: string }
  /** An address with an older version: the photo's current address. */
  | { kind: "moved"; address: string }
  /** The file cannot be read or decoded: the route serves the view's drawing. */
  | { kind: "broken" }
  | { kind: "missing" };

/**
 * What to answer for a photo address: the photo at its width and format, the current address when
 * the version is an older one, or that the photo is broken or missing (an unknown product, view or width).
 */
export async function findPhoto(
  config: { PRODUCT_PHOTOS_DIR?: string; PRODUCT_PHOTOS_CACHE_DIR: string },
  { brand, id, photo }: { brand: string; id: string; photo: PhotoFile },
): Promise<PhotoAnswer> {
  if (!(PHOTO_WIDTHS as readonly number[]).includes(photo.width)) return { kind: "missing" };
  const index = await photoIndex(config.PRODUCT_PHOTOS_DIR);
  const source = index?.products.get(`${brand}-${id}`)?.find((candidate) => candidate.n === photo.n);
  if (!index || !source) return { kind: "missing" };
  if (photo.version !== source.version) {
    return { kind: "moved", address: photoUrl(brand, id, photo.n, source.version, photo.width, photo.format) };
  }
  const brokenKey = `${source.file}\0${source.version}`;
  if (brokenPhotos.has(brokenKey)) return { kind: "broken" };
  try {
    const bytes = await resizedPhoto(config.PRODUCT_PHOTOS_CACHE_DIR, source, photo.width, photo.format);
    return { kind: "photo", bytes, contentType: PHOTO_FORMATS[photo.format] };
  } catch (error) {
    // Requests that shared the failed resize all land here: the first one logs.
    if (!brokenPhotos.has(brokenKey)) {
      brokenPhotos.add(brokenKey);
      log("error", "Photo cannot be read; its drawing is served until the file is replaced and the store restarted", {
        photo: path.relative(index.dir, source.file),
        reason: firstLine(error),
      });
    }
    return { kind: "broken" };
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n", 1)[0] ?? "";
}
