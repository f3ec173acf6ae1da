/**
 * The response header by which the store says which of its caches answered a request:
 * `shared` (server/shared-cache.ts, cookie-less public answers) or `page` (the rendered-HTML
 * cache of utils/page-cache.server.ts). Absent when Remix rendered the answer. `npm run bench`
 * reads it to say, for each row, whether a cache answered.
 */
export const CACHE_ANSWER_HEADER = "x-store-cache";

export type CacheAnswer = "shared" | "page";
