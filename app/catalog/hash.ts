/** FNV-1a 32-bit hash: a stable, dependency-free way to pick variants by Id. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Picks one of `options` deterministically from a seed string and a salt. */
export function pick<T>(options: readonly T[], seed: string, salt = ""): T {
  if (options.length === 0) throw new Error("pick() needs at least one option");
  const index = stableHash(`${salt}:${seed}`) % options.length;
  return options[index] as T;
}
