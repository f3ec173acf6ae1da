import { useState, type ImgHTMLAttributes } from "react";
import { displayImageUrl } from "~/catalog/image-url";

export const PLACEHOLDER_IMAGE = "/images/placeholder.svg";

/**
 * A `meta` descriptor that preloads a page's largest picture with high
 * priority: in the <head> before the style sheet, so the browser fetches it
 * while the CSS and script download (the LCP picture of list and product pages).
 */
export function picturePreload(src: string) {
  return { tagName: "link", rel: "preload", as: "image", href: displayImageUrl(src), fetchpriority: "high" };
}

/**
 * A product picture that falls back to the placeholder when it fails to load.
 * The server render already points at the right URL; the fallback needs script.
 */
export function ProductImage({
  src,
  alt,
  priority = false,
  ...rest
}: ImgHTMLAttributes<HTMLImageElement> & { src: string; alt: string; priority?: boolean }) {
  const [failed, setFailed] = useState(false);
  return (
    <img
      {...rest}
      // The page's largest picture: fetched at once and first (React 18 passes the lower-case attribute through).
      {...(priority ? { fetchpriority: "high" } : {})}
      src={failed ? PLACEHOLDER_IMAGE : displayImageUrl(src)}
      alt={alt}
      loading={priority ? "eager" : (rest.loading ?? "lazy")}
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
