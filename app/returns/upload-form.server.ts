import type { Config } from "~/config.server";
import { FORM_MESSAGES, fieldsOf, formDataOrThrow, readFormData, type FormFields } from "~/utils/forms.server";
import { PHOTO_MAX_BYTES, PHOTO_MAX_COUNT, type UploadedPhoto } from "./photos.server";

/**
 * The return and defect claim forms carry photos, so they are read with a larger limit than other
 * forms (app/http/body-limits.ts lets these two paths through up to the same size): three photos of
 * 5 MB and the fields. Otherwise as readForm (app/utils/forms.server.ts): POST only, same site only,
 * a form type only, a body over the limit a 413 page, an unparseable one a 400. Files other than
 * `photo` parts are ignored; an empty file input sends a part without bytes, which is no photo.
 */

export const AFTER_SALE_FORM_MAX_BYTES = PHOTO_MAX_COUNT * PHOTO_MAX_BYTES + 1024 * 1024;

/**
 * The parts a return or claim form of an order with `orderLines` lines may have: its own dozen fields, a
 * quantity per line, and room for more photos than are kept (so four get "at most 3", not a refusal of the form).
 */
export function afterSaleFormFields(orderLines: number): number {
  return 12 + Math.min(orderLines, 100) + 3 * PHOTO_MAX_COUNT;
}
export interface UploadForm {
  fields: FormFields;
  photos: UploadedPhoto[];
}

export const UPLOAD_FORM_MESSAGES = {
  crossSite: "This form was sent from another website, so it was not accepted. Please use the form on our page.",
  unsupportedType: "This address accepts only the form on its page. Please use the form on the page.",
  tooManyFields: "That form had more fields than the form on our page has, so it was not read. Please use the form on the page.",
  tooLarge: (maxBytes: number) =>
    maxBytes >= 1024 * 1024
      ? `That form was larger than ${Math.floor(maxBytes / (1024 * 1024))} MB, so it was not read. Please send at most 3 photos of up to 5 MB each.`
      : `That form was larger than ${Math.floor(maxBytes / 1024)} KB, so it was not read. Please confirm your email address first, then add photos.`,
} as const;

/**
 * Reads the form within `maxBytes`: the full allowance only for a browser that has proven the order
 * is its own (the caller knows), 64 KB otherwise, so a stranger holding an Order ID never makes a
 * process hold 16 MB; and within `maxFields` parts, counted as they arrive (the page's fields, one per
 * order line, and a few photos), so no post of thousands of empty parts is ever parsed. The
 * configuration's PUBLIC_BASE_URL is an origin of the store's own pages.
 */
export async function readUploadForm(
  request: Request,
  config: Pick<Config, "PUBLIC_BASE_URL">,
  { maxBytes = AFTER_SALE_FORM_MAX_BYTES, maxFields }: { maxBytes?: number; maxFields: number },
): Promise<UploadForm> {
  const texts = { ...UPLOAD_FORM_MESSAGES, tooLarge: UPLOAD_FORM_MESSAGES.tooLarge(maxBytes), unreadable: FORM_MESSAGES.unreadable };
  const formData = formDataOrThrow(await readFormData(request, config, { maxBytes, maxFields, texts }));
  const photos: UploadedPhoto[] = [];
  for (const value of formData.getAll("photo")) {
    if (typeof value === "string" || value.size === 0) continue;
    photos.push({ name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return { fields: fieldsOf(formData), photos };
}
