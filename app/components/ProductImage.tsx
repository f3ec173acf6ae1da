import { useState, type ImgHTMLAttributes } from "react";
import { displayImageUrl } from "~/catalog/image-url";

export const PLACEHOLDER_IMAGE = "/images/placeholder.svg";

/**
 * A product picture that falls back to the placeholder when it fails to load.
 * The server render already points at the right URL; the fallback needs script.
 */
export function ProductImage({ src, alt, ...rest }: ImgHTMLAttributes<HTMLImageElement> & { src: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <img
      {...rest}
      src={failed ? PLACEHOLDER_IMAGE : displayImageUrl(src)}
      alt={alt}
      loading={rest.loading ?? "lazy"}
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
