import { z } from "zod";
import { cachedProductByKey } from "~/catalog/cached-queries.server";
import type { StoreProduct } from "~/catalog/store-product";
import type { Database } from "~/db/database.server";
import { signedCookie, type CookieKeys } from "~/utils/cookies.server";
import { parseForm, type FormFields } from "~/utils/forms.server";
import { addToCompare, removeFromCompare, replaceInCompare, sanitizeCompareList, type CompareChange } from "./compare";

const compareCookie = signedCookie("compare", { maxAge: 60 * 60 * 24 * 30 });

/** The list this browser holds; a missing or tampered cookie is an empty list. */
export async function readCompareList(keys: CookieKeys, request: Request): Promise<string[]> {
  return sanitizeCompareList(await compareCookie.parse(keys, request));
}

export async function compareCookieHeader(keys: CookieKeys, request: Request, list: readonly string[]): Promise<string> {
  return compareCookie.serialize(keys, request, sanitizeCompareList(list));
}

const keyField = z.string().min(1).max(120);
/** `items` is the list the page showed (a shared link edits what it shows); absent, the cookie's list. */
const itemsField = z.string().max(600).optional();
const compareForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), productKey: keyField, items: itemsField }),
  z.object({ intent: z.literal("remove"), productKey: keyField, items: itemsField }),
  z.object({ intent: z.literal("replace"), productKey: keyField, replaces: keyField, items: itemsField }),
  z.object({ intent: z.literal("clear") }),
]);

export type CompareForm = z.output<typeof compareForm>;

export function parseCompareForm(fields: FormFields): CompareForm | null {
  const parsed = parseForm(compareForm, fields);
  return parsed.ok ? parsed.data : null;
}

export type CompareOutcome = CompareChange | { ok: false; full: false; list: string[]; message: string };

/** Applies one posted change to `list`; an added product must exist in the catalog. */
export async function applyCompareChange(db: Database, cookieList: string[], form: CompareForm | null): Promise<CompareOutcome> {
  if (!form) return { ok: false, full: false, list: cookieList, message: "That change could not be made." };
  if (form.intent === "clear") return { ok: true, list: [] };
  const list = form.items !== undefined ? sanitizeCompareList(form.items.split(",")) : cookieList;
  if (form.intent === "remove") return { ok: true, list: removeFromCompare(list, form.productKey) };
  const product = await cachedProductByKey(db, form.productKey);
  if (!product) return { ok: false, full: false, list, message: "That product is no longer in our catalog." };
  if (form.intent === "replace") return { ok: true, list: replaceInCompare(list, form.replaces, product.key) };
  return addToCompare(list, product.key);
}

/** The products of a list, in its order; keys no longer in the catalog are left out. */
export async function compareProducts(db: Database, list: readonly string[]): Promise<StoreProduct[]> {
  const found = await Promise.all(list.map((key) => cachedProductByKey(db, key)));
  return found.filter((product): product is StoreProduct => product !== null);
}
