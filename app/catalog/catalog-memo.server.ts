import type { Database } from "~/db/database.server";

/**
 * A bounded in-process memo for catalogue answers that are the same for every
 * shopper (list pages, product records, search results, random picks). Kept
 * per database, least recently used first out, and emptied when the catalogue
 * is reloaded (`forgetCatalogMemo`, called by the catalogue load). Answers that
 * are random by design (promotions, related products) are kept for a short
 * time only, so they still change from one minute to the next. A failed
 * query is never kept.
 */

const MAX_ENTRIES = 1_000;

interface Entry {
  value: Promise<unknown>;
  expires: number;
}

const memos = new WeakMap<Database, Map<string, Entry>>();

export function memoized<T>(db: Database, key: string, ttlMs: number, compute: () => Promise<T>): Promise<T> {
  let entries = memos.get(db);
  if (!entries) {
    entries = new Map();
    memos.set(db, entries);
  }
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && hit.expires > now) {
    // Most recently used goes last.
    entries.delete(key);
    entries.set(key, hit);
    return hit.value as Promise<T>;
  }
  const value = compute();
  const map = entries;
  map.delete(key);
  map.set(key, { value, expires: now + ttlMs });
  value.catch(() => {
    if (map.get(key)?.value === value) map.delete(key);
  });
  while (map.size > MAX_ENTRIES) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
  return value;
}

export function forgetMemoEntry(db: Database, key: string): void {
  memos.get(db)?.delete(key);
}

export function forgetCatalogMemo(db: Database): void {
  memos.delete(db);
}

/** Until the next catalogue load. */
export const UNTIL_RELOAD = Number.POSITIVE_INFINITY;
/** Random picks: the same for a minute, then drawn again. */
export const RANDOM_PICK_MS = 60_000;
