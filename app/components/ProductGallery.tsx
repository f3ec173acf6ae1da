import { useState } from "react";
import { ProductImage } from "./ProductImage";

/**
 * Desktop: a large image and thumbnails; hovering or focusing a thumbnail
 * shows it (each thumbnail is also a link, ?image=N, so it works without
 * script). Mobile: the images become a swipeable scroll-snap row with dots.
 * The last image is shown first, as the spec asks.
 */
export function ProductGallery({ images, title, initialIndex }: { images: string[]; title: string; initialIndex: number }) {
  const [selected, setSelected] = useState(initialIndex);
  const shown = images[selected] ?? images[images.length - 1];
  return (
    <section className="gallery" aria-label="Product images">
      <div className="gallery__main">
        <ProductImage src={shown} alt={`${title}, image ${selected + 1} of ${images.length}`} width={600} height={600} loading="eager" />
      </div>
      <ul className="gallery__strip" aria-label="Swipe through images">
        {[...images].reverse().map((image, reversedIndex) => {
          const index = images.length - 1 - reversedIndex;
          return (
            <li key={image}>
              <ProductImage src={image} alt={`${title}, image ${index + 1} of ${images.length}`} width={600} height={600} />
            </li>
          );
        })}
      </ul>
      {images.length > 1 ? (
        <ul className="gallery__thumbs">
          {images.map((image, index) => (
            <li key={image}>
              <a
                href={`?image=${index + 1}`}
                className={index === selected ? "gallery__thumb is-selected" : "gallery__thumb"}
                aria-label={`Show image ${index + 1}`}
                aria-current={index === selected ? "true" : undefined}
                onMouseEnter={() => setSelected(index)}
                onFocus={() => setSelected(index)}
                onClick={(event) => {
                  event.preventDefault();
                  setSelected(index);
                }}
              >
                <ProductImage src={image} alt="" width={80} height={80} />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
