/**
 * Kept apart from the illustration code so the browser bundle that shows
 * product images does not carry the SVG drawings.
 */
const RESIZE_PARAMS = new Set(["resize", "width", "height", "w", "h", "fit", "crop", "size", "quality", "dpr"]);

/**
 * The spec's "Image URLs have a resize suffix cut off for display": drops
 * resize query parameters (`?resize=300,300`, `?width=600&height=600`) and a
 * `_100x100` / `-600x600` style size suffix just before the file extension.
 * URLs without such a suffix are returned unchanged.
 */
export function displayImageUrl(url: string): string {
  if (typeof url !== "string" || url === "") return url;
  const hashAt = url.indexOf("#");
  const fragment = hashAt >= 0 ? url.slice(hashAt) : "";
  const withoutFragment = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const queryAt = withoutFragment.indexOf("?");
  let path = queryAt >= 0 ? withoutFragment.slice(0, queryAt) : withoutFragment;
  let query = queryAt >= 0 ? withoutFragment.slice(queryAt + 1) : null;
  let changed = false;
  if (query !== null) {
    const params = query.split("&").filter((param) => param !== "");
    const kept = params.filter((param) => {
      const name = param.split("=")[0] ?? "";
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        decoded = name;
      }
      return !RESIZE_PARAMS.has(decoded.toLowerCase());
    });
    if (kept.length !== params.length) {
      changed = true;
      query = kept.length > 0 ? kept.join("&") : null;
    }
  }
  const trimmedPath = path.replace(/[-_](?:\d{2,5}x\d{2,5}|\d{2,5}x|x\d{2,5})(?=\.[A-Za-z0-9]{2,5}$)/, "");
  if (trimmedPath !== path) {
    changed = true;
    path = trimmedPath;
  }
  if (!changed) return url;
  return `${path}${query !== null ? `?${query}` : ""}${fragment}`;
}
