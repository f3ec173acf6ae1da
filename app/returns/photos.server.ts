import { loadSharp, withImageSlot } from "~/utils/sharp.server";

/**
 * A customer's photo of a return or a defect: checked by its content, never by its name or the type
 * the browser claims, and re-encoded before anything is kept. sharp reads the header first: only
 * JPEG, PNG and WebP pass (an SVG, a PDF or a script renamed .jpg does not), and an image of more
 * than 40 megapixels is refused before it is decoded (a small file can declare a huge canvas). The
 * kept copy is a new JPEG, turned upright by its EXIF orientation and then without any metadata (no
 * location, no camera serial), at most 2000 pixels on its longer side. It goes into the database
 * (after_sale_photos), never into a public folder; only staff see it.
 */

export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTO_MAX_COUNT = 3;
export const PHOTO_MAX_PIXELS = 40_000_000;
export const PHOTO_MAX_SIDE = 2000;
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp"]);

export const PHOTO_MESSAGES = {
  tooMany: `Please send at most ${PHOTO_MAX_COUNT} photos.`,
  tooLarge: (name: string) => `The photo “${name}” is larger than 5 MB. Please send a smaller one.`,
  notImage: (name: string) => `“${name}” is not a JPEG, PNG or WebP photo. Please send a photo.`,
  tooManyPixels: (name: string) => `The photo “${name}” has too many pixels (over 40 megapixels). Please send a smaller one.`,
  unreadable: (name: string) => `The photo “${name}” could not be read; it may be damaged. Please send it again or choose another.`,
} as const;

export interface UploadedPhoto {
  name: string;
  bytes: Uint8Array;
}

export interface ProcessedPhoto {
  contentType: "image/jpeg";
  width: number;
  height: number;
  data: Buffer;
}

export type PhotoResult = { ok: true; photo: ProcessedPhoto } | { ok: false; message: string };

/** A file name fit to repeat in a message: one line, short. */
function shownName(name: string): string {
  const clean = name.replace(/[\p{Cc}\s]+/gu, " ").trim();
  return (clean.length > 60 ? `${clean.slice(0, 59)}…` : clean) || "photo";
}

export async function processPhoto(upload: UploadedPhoto): Promise<PhotoResult> {
  const name = shownName(upload.name);
  if (upload.bytes.byteLength > PHOTO_MAX_BYTES) return { ok: false, message: PHOTO_MESSAGES.tooLarge(name) };
  const sharp = await loadSharp();
  const input = Buffer.from(upload.bytes.buffer, upload.bytes.byteOffset, upload.bytes.byteLength);
  let format: string | undefined;
  let pixels: number;
  try {
    // The header only, whatever canvas it declares: the pixel limit is ours to say (the decode below keeps it).
    const metadata = await sharp(input, { limitInputPixels: false }).metadata();
    format = metadata.format;
    pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  } catch {
    return { ok: false, message: PHOTO_MESSAGES.notImage(name) };
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) return { ok: false, message: PHOTO_MESSAGES.notImage(name) };
  if (pixels > PHOTO_MAX_PIXELS) return { ok: false, message: PHOTO_MESSAGES.tooManyPixels(name) };
  if (pixels === 0) return { ok: false, message: PHOTO_MESSAGES.unreadable(name) };
  try {
    const { data, info } = await withImageSlot(() =>
      sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS, failOn: "error" })
        .rotate()
        .resize({ width: PHOTO_MAX_SIDE, height: PHOTO_MAX_SIDE, fit: "inside", withoutEnlargement: true })
        .flatten({ background: "#ffffff" })
        .jpeg({ quality: 82, mozjpeg: true })
        .toBuffer({ resolveWithObject: true }),
    );
    return { ok: true, photo: { contentType: "image/jpeg", width: info.width, height: info.height, data } };
  } catch {
    return { ok: false, message: PHOTO_MESSAGES.unreadable(name) };
  }
}
