import { useState, type ImgHTMLAttributes } from "react";
import { displayImageUrl, photoSources } from "~/catalog/image-url";

export const PLACEHOLDER_IMAGE = "/images/placeholder.svg";

/** `sizes` of a product card's picture: the grid has 2 columns on a phone, 3 from 768px, 4 from 1200px (app.css). */
export const CARD_IMAGE_SIZES = "(min-width: 1200px) 320px, (min-width: 768px) 31vw, 48vw";

/**
 * A `meta` descriptor that preloads a page's largest picture with high
 * priority: in the <head> before the style sheet, so the browser fetches it
 * while the CSS and script download (the LCP picture of list and product pages).
 * For a photo, the AVIF set the <picture> picks from (a browser without AVIF skips the preload).
 */
export function picturePreload(src: string, sizes?: string) {
  const photo = photoSources(src);
  if (photo) {
    return {
      tagName: "link",
      rel: "preload",
      as: "image",
      type: "image/avif",
      imageSrcSet: photo.avif,
      imageSizes: sizes,
      fetchpriority: "high",
    };
  }
  return { tagName: "link", rel: "preload", as: "image", href: displayImageUrl(src), fetchpriority: "high" };
}

/**
 * A product picture. A photo (image-url.ts) is a <picture> of AVIF and WebP at every width, which
 * the browser picks by `sizes` (default: the `width` attribute); anything else is a plain <img>.
 * A photo that fails to load falls back to the drawing of the same view, and any picture that
 * fails to the placeholder; the server render already points at the right URL, the fallback needs script.
 */
export function ProductImage({
  src,
  alt,
  priority = false,
  sizes,
  ...rest
}: ImgHTMLAttributes<HTMLImageElement> & { src: string; alt: string; priority?: boolean }) {
  // Failures of this src only: the gallery's large image changes src as the shopper picks another view.
  const [failure, setFailure] = useState({ src, count: 0 });
  const failures = failure.src === src ? failure.count : 0;
  const photo = photoSources(src);
  const shown = failures === 0 ? displayImageUrl(src) : failures === 1 && photo ? photo.drawing : PLACEHOLDER_IMAGE;
  const img = (
    <img
      {...rest}
      // The page's largest picture: fetched at once and first (React 18 passes the lower-case attribute through).
      {...(priority ? { fetchpriority: "high" } : {})}
      src={shown}
      alt={alt}
      loading={priority ? "eager" : (rest.loading ?? "lazy")}
      decoding="async"
      onError={() => setFailure((last) => ({ src, count: (last.src === src ? last.count : 0) + 1 }))}
    />
  );
  if (!photo || failures > 0) return img;
  const pictureSizes = sizes ?? (rest.width ? `${rest.width}px` : "100vw");
  return (
    <picture className="product-picture">
      <source type="image/avif" srcSet={photo.avif} sizes={pictureSizes} />
      <source type="image/webp" srcSet={photo.webp} sizes={pictureSizes} />
      {img}
    </picture>
  );
}
