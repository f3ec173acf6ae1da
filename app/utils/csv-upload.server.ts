import type { Config } from "~/config.server";
import { FORM_MESSAGES, fieldsOf, formRefusal, readFormData, type FormFields } from "~/utils/forms.server";
import { CSV_UPLOAD_MAX_BYTES, uploadFileName } from "./csv-upload";

/**
 * The one reader of a staff CSV upload form (the stock desk's and the catalogue desk's imports): the file
 * and a few fields. The HTTP server lets the import paths through up to CSV_IMPORT_UPLOAD_MAX_BYTES
 * (app/http/body-limits.ts), so a file a little over the limit gets this page's message.
 */

/** The upload form's body: the file and a few fields. */
const CSV_UPLOAD_FORM_MAX_BYTES = CSV_UPLOAD_MAX_BYTES + 16 * 1024;
const CSV_UPLOAD_FORM_FIELDS = 6;

export type CsvUpload =
  { ok: true; fields: FormFields; file: { name: string; bytes: Uint8Array } | null } | { ok: false; status: number; message: string };

export const CSV_UPLOAD_MESSAGES = {
  tooLarge: `That file is larger than ${CSV_UPLOAD_MAX_BYTES / (1024 * 1024)} MB, so it was not read. Split it into files of at most 5,000 rows.`,
  unsupportedType: "This address accepts only the upload form on its page. Please use the form on the page.",
  tooManyFields: "That form had more fields than the upload form has, so it was not read. Please use the form on the page.",
  crossSite: "This form was sent from another website, so it was not accepted. Please use the form on our page.",
  noFile: "Choose a CSV file to upload.",
} as const;

/**
 * Reads the upload form (multipart, within CSV_UPLOAD_FORM_MAX_BYTES and a few parts): its fields and its
 * `file`, named as the preview shows it (`fallbackName` when it has none). POST only and same site only
 * (thrown as readForm does); a body too large, of another type or with too many parts is a message for the
 * page, with what came after the limit dropped unread.
 */
export async function readCsvUploadForm(
  request: Request,
  config: Pick<Config, "PUBLIC_BASE_URL">,
  fallbackName: string,
): Promise<CsvUpload> {
  const read = await readFormData(request, config, {
    maxBytes: CSV_UPLOAD_FORM_MAX_BYTES,
    maxFields: CSV_UPLOAD_FORM_FIELDS,
    texts: { ...CSV_UPLOAD_MESSAGES, unreadable: FORM_MESSAGES.unreadable },
  });
  // Another site's post and a body that is no form are not the desk's: thrown, as readForm does. The rest the page says.
  if (!read.ok && (read.status === 403 || read.status === 400)) throw formRefusal(read);
  if (!read.ok) return { ok: false, status: read.status, message: read.message };
  const { formData } = read;
  const part = formData.get("file");
  const file =
    part && typeof part !== "string" && part.size > 0
      ? { name: uploadFileName(part.name, fallbackName), bytes: new Uint8Array(await part.arrayBuffer()) }
      : null;
  return { ok: true, fields: fieldsOf(formData), file };
}
