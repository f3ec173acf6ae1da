/**
 * The one rule for text that arrives from outside (form fields, JSON strings,
 * route and search params): control characters never reach the database or
 * a page. PostgreSQL refuses NUL in text (a NUL in a search or a form field
 * was a 500), and no field of ours means any other control character.
 *
 * - cleanText strips them (keeping tab and line breaks, which a message
 *   textarea may hold) and replaces lone UTF-16 surrogates with U+FFFD:
 *   readForm and readJsonPayload use it for every field, the catalog search for its words.
 * - hasControlCharacters says whether an identifier (a product key, an order
 *   or payment id) holds one: such an identifier names nothing we have, so
 *   lookups answer "not found" without asking the database.
 */

// C0 controls except tab (09), line feed (0A) and carriage return (0D); DEL; C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function cleanText(value: string): string {
  return value.replace(CONTROL, "").replace(new RegExp(LONE_SURROGATE, "g"), "\uFFFD");
}

/** True when the text holds any control character (tab and line breaks included) or a lone surrogate. */
export function hasControlCharacters(value: string): boolean {
  return ANY_CONTROL.test(value) || LONE_SURROGATE.test(value);
}
