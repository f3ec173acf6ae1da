import type { z } from "zod";
import type { Config } from "~/config.server";
import { cleanText } from "./request-text";
import { isCrossSiteRequest } from "./same-origin.server";

/**
 * The one way an action reads a posted form:
 *
 *   const fields = await readForm(request, context.store.config); // POST, a form type, within the size limit
 *   const parsed = parseForm(schema, fields);                     // zod; the first error of each field
 *
 * readForm refuses by throwing a Response the error boundary shows with the
 * store's layout: 405 for another method (with `Allow`), 403 for a form another
 * site's page sent (Sec-Fetch-Site/Origin; the configuration's PUBLIC_BASE_URL
 * counts as the store's own), 415 for a body that
 * is not a form, 413 for one over the limit, 400 for a form that cannot be
 * parsed. parseForm throws a 400 for an `intent` the schema's discriminated
 * union does not know; every other problem is a message per field.
 */

/** The fields of a form: the first text value of each name (file parts are ignored). */
export type FormFields = Record<string, string>;
export type FieldErrors = Record<string, string>;
export type FormParse<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/** What a shopper's form may weigh: far more than any of ours needs (the longest, a contact message, is 5,000 characters). */
export const SHOPPER_FORM_MAX_BYTES = 64 * 1024;
/**
 * The most fields a form may hold: ours have a few dozen at most. Counted as the body arrives, so a body of
 * thousands of empty fields is refused before it is parsed (parsing 100,000 parts holds the process a second).
 */
export const MAX_FORM_FIELDS = 200;
export const FORM_METHODS_ALLOWED = "GET, HEAD, POST";
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

export const FORM_MESSAGES = {
  methodNotAllowed: "This address accepts a form sent with POST only.",
  crossSite: "This form was sent from another website, so it was not accepted. Please use the form on our page.",
  unsupportedType:
    "This address accepts only a web form (application/x-www-form-urlencoded or multipart/form-data). Please use the form on the page.",
  tooLarge: (maxBytes: number) =>
    `That form was larger than ${Math.floor(maxBytes / 1024)} KB, so it was not read. Please shorten it and try again.`,
  tooManyFields: (maxFields: number) => `That form had more than ${maxFields} fields, so it was not read. Please use the form on the page.`,
  unreadable: "That form could not be read. Please go back and send it again.",
  unknownIntent: (intent: string) =>
    intent
      ? `This page does not know the action “${intent.slice(0, 40)}”. Please go back and try again.`
      : "This form did not say what to do. Please go back and try again.",
} as const;

function refuse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });
}

/**
 * The form's fields from already parsed FormData (e.g. what remix-auth hands its strategy),
 * control characters removed from names and values (request-text.ts).
 */
export function fieldsOf(formData: FormData): FormFields {
  const fields: FormFields = Object.create(null) as FormFields;
  for (const [rawName, value] of formData) {
    const name = cleanText(rawName);
    if (typeof value === "string" && !(name in fields)) fields[name] = cleanText(value);
  }
  return fields;
}

/** Throws the 405 (with `Allow`) for anything but POST: for actions that check something (a staff session) before reading the form. */
export function requirePost(request: Request): void {
  if (request.method !== "POST") throw refuse(405, FORM_MESSAGES.methodNotAllowed, { Allow: FORM_METHODS_ALLOWED });
}

/** What a page says when its form is refused: each reader's texts, for its own limits. */
export interface FormRefusalTexts {
  crossSite: string;
  unsupportedType: string;
  tooLarge: string;
  tooManyFields: string;
  unreadable: string;
}

/** The texts of readForm's refusals, for these limits. */
function formRefusalTexts(maxBytes: number, maxFields: number): FormRefusalTexts {
  return {
    crossSite: FORM_MESSAGES.crossSite,
    unsupportedType: FORM_MESSAGES.unsupportedType,
    tooLarge: FORM_MESSAGES.tooLarge(maxBytes),
    tooManyFields: FORM_MESSAGES.tooManyFields(maxFields),
    unreadable: FORM_MESSAGES.unreadable,
  };
}

export type FormRead = { ok: true; formData: FormData } | { ok: false; status: 403 | 413 | 415 | 400; message: string };

export interface FormReadOptions {
  maxBytes: number;
  maxFields: number;
  /** The refusals' texts (readForm's by default). */
  texts?: FormRefusalTexts;
  /** A provider's page posting back to us (Affirm's confirmation) comes from its own site. */
  fromAnySite?: boolean;
}

/**
 * The one reader of a POSTed form body, url-encoded or multipart, that every form reader builds on: POST only
 * (else the 405 is thrown), from the store's own pages unless `fromAnySite`, a form type, within `maxBytes`
 * (declared or sent) and `maxFields` parts (counted as they arrive, so what comes after a limit is dropped
 * unread), and parseable. A refusal is a result with its status and text; the caller decides how to answer.
 */
export async function readFormData(
  request: Request,
  config: Pick<Config, "PUBLIC_BASE_URL">,
  { maxBytes, maxFields, texts = formRefusalTexts(maxBytes, maxFields), fromAnySite = false }: FormReadOptions,
): Promise<FormRead> {
  requirePost(request);
  if (!fromAnySite && isCrossSiteRequest(request, config.PUBLIC_BASE_URL)) return { ok: false, status: 403, message: texts.crossSite };
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  if (!FORM_TYPES.includes(mediaType)) return { ok: false, status: 415, message: texts.unsupportedType };
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return { ok: false, status: 413, message: texts.tooLarge };
  const read = await readFormBody(request, contentType, { maxBytes, maxFields });
  if (read.status === "too-large") return { ok: false, status: 413, message: texts.tooLarge };
  if (read.status === "too-many-fields") return { ok: false, status: 413, message: texts.tooManyFields };
  try {
    return { ok: true, formData: await new Response(read.body, { headers: { "Content-Type": contentType } }).formData() };
  } catch {
    // A multipart body without its parts, a missing boundary...
    return { ok: false, status: 400, message: texts.unreadable };
  }
}

/** Reads the POSTed form's fields, or throws a Response (405, 403, 415, 413, 400) that says why not. */
export async function readForm(
  request: Request,
  config: Pick<Config, "PUBLIC_BASE_URL">,
  { maxBytes = SHOPPER_FORM_MAX_BYTES, maxFields = MAX_FORM_FIELDS }: { maxBytes?: number; maxFields?: number } = {},
): Promise<FormFields> {
  return fieldsOf(formDataOrThrow(await readFormData(request, config, { maxBytes, maxFields })));
}

/** A 400 for a form that makes no sense (not one a page of ours sends). */
export function unreadableForm(): Response {
  return refuse(400, FORM_MESSAGES.unreadable);
}

/** The form read, or its refusal thrown as a Response the error boundary shows with the store's layout. */
export function formDataOrThrow(read: FormRead): FormData {
  if (!read.ok) throw formRefusal(read);
  return read.formData;
}

/** A refused form's answer, for the error boundary: its status and text. */
export function formRefusal(refused: Extract<FormRead, { ok: false }>): Response {
  return refuse(refused.status, refused.message);
}

/**
 * The body, or null once it grows past maxBytes (a body without Content-Length is counted as it arrives). What is
 * still coming after that is read and dropped, never kept: cancelling the stream would destroy the request, and with
 * it the connection the route's 413 answer has to go out on. The HTTP server's own limit bounds what is dropped
 * (server/body-limit.ts): past it the stream fails, and the server has answered.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const read = await readBody(request, maxBytes);
  return read.status === "read" ? read.body : null;
}

/**
 * A form's body within `maxBytes` and `maxFields`, or which of them it passed: its fields are counted as the
 * bytes arrive (multipart parts by their delimiter, url-encoded pairs by `&`), so what comes after a limit is
 * dropped unread and never parsed.
 */
function readFormBody(
  request: Request,
  contentType: string,
  { maxBytes, maxFields }: { maxBytes: number; maxFields: number },
): Promise<BodyRead> {
  return readBody(request, maxBytes, { count: fieldCounter(contentType), max: maxFields });
}

type BodyRead = { status: "read"; body: Uint8Array<ArrayBuffer> } | { status: "too-large" } | { status: "too-many-fields" };

async function readBody(
  request: Request,
  maxBytes: number,
  fields?: { count: (chunk: Uint8Array) => number; max: number },
): Promise<BodyRead> {
  if (!request.body) return { status: "read", body: new Uint8Array() };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    const refused = size > maxBytes ? "too-large" : fields && fields.count(value) > fields.max ? "too-many-fields" : null;
    if (refused) {
      await discardRest(reader);
      return { status: refused };
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { status: "read", body };
}

/**
 * Counts a form's fields so far, chunk by chunk: a multipart body's parts are its delimiter lines less the
 * closing one (a delimiter split across two chunks is found once), a url-encoded body's pairs its `&`s and one.
 */
function fieldCounter(contentType: string): (chunk: Uint8Array) => number {
  const boundary = /boundary=(?:"([^"]{1,200})"|([^;\s]{1,200}))/i.exec(contentType);
  if (/^multipart\//i.test(contentType.trim()) && boundary) {
    const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
    let carried = Buffer.alloc(0);
    let delimiters = 0;
    return (chunk) => {
      const text = Buffer.concat([carried, chunk]);
      for (let at = text.indexOf(delimiter); at !== -1; at = text.indexOf(delimiter, at + delimiter.length)) delimiters += 1;
      carried = text.subarray(Math.max(0, text.length - (delimiter.length - 1)));
      return Math.max(0, delimiters - 1);
    };
  }
  let pairs = 1;
  return (chunk) => {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let at = bytes.indexOf(0x26); at !== -1; at = bytes.indexOf(0x26, at + 1)) pairs += 1;
    return pairs;
  };
}

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    for (;;) if ((await reader.read()).done) return;
  } catch {
    // Cut off by the server's limit (or the client left): nothing more to read.
  }
}

/** The first message of each field; a problem with the form as a whole is kept under "". */
export function firstErrorPerField(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : "";
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * Parses the fields with a zod schema. With a discriminated union on
 * `intent`, an intent it does not know is no field error but a request no
 * page of ours makes: a 400 with a readable message.
 */
export function parseForm<S extends z.ZodType>(schema: S, fields: FormFields): FormParse<z.output<S>> {
  const result = schema.safeParse(fields);
  if (result.success) return { ok: true, data: result.data };
  const unknownIntent = result.error.issues.some(
    (issue) => issue.code === "invalid_union" && issue.path.length === 1 && issue.path[0] === "intent",
  );
  if (unknownIntent) throw refuse(400, FORM_MESSAGES.unknownIntent(fields.intent ?? ""));
  return { ok: false, errors: firstErrorPerField(result.error) };
}
