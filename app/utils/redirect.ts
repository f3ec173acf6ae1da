const SAME_SITE_BASE = "http://same-site.invalid";

/**
 * Only a path on this site may be a redirect target: no scheme, no host, no
 * `//evil.example`, `/\evil.example`, `/.//evil.example` or encoded-dot tricks.
 * The path is normalized first (as a browser would resolve it), then checked,
 * so nothing that resolves to another site survives. Anything else is the fallback.
 */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2048 || !isSameSitePath(value)) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, SAME_SITE_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== SAME_SITE_BASE) return fallback;
  const normalized = `${url.pathname}${url.search}`;
  return isSameSitePath(normalized) ? normalized : fallback;
}

/** Starts with one slash, and neither a second slash nor a backslash (both mean "another host" to a browser). */
function isSameSitePath(path: string): boolean {
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");
}
