/**
 * The response header by which the store says that its cache answered a request: `shared`
 * (server/shared-cache.ts, cookie-less public answers). Absent when Remix rendered the answer.
 * `npm run bench` reads it to say, for each row, whether the cache answered.
 */
export const CACHE_ANSWER_HEADER = "x-store-cache";

export type CacheAnswer = "shared";
