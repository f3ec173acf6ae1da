import { useState } from "react";
import { type CarouselOptions, deferred, KeptMarkup, ProductImage } from "~/components/shared";

/** The carousel's script (and its hydration) waits until a carousel comes near the screen. */
const Carousel = deferred(() => import("./carousel/Carousel").then((module) => module.Carousel));

/** The large image: the page's left half on a desktop (at most 600px), the screen's width on a phone. */
export const GALLERY_SIZES = "(min-width: 900px) 600px, 100vw";

/** Mobile: one image at a time, looping, with dots and autoplay; the last image comes first. */
const MOBILE_GALLERY: CarouselOptions = { slidesPerView: { default: 1 }, autoplayMs: 3000, loop: true, dots: true, arrows: false, gap: 8 };

/**
 * Desktop: a large image and thumbnails; hovering or focusing a thumbnail
 * shows it (each thumbnail is also a link, ?image=N, so it works without
 * script). Mobile: a swipeable, looping carousel with dots (a scroll-snap row without script).
 * The last image is shown first, as the spec asks.
 */
export function ProductGallery({ images, title, initialIndex }: { images: string[]; title: string; initialIndex: number }) {
  const [selected, setSelected] = useState(initialIndex);
  const shown = images[selected] ?? images[images.length - 1];
  return (
    <section className="gallery" aria-label="Product images">
      <div className="gallery__main">
        <ProductImage
          src={shown}
          alt={`${title}, image ${selected + 1} of ${images.length}`}
          width={600}
          height={600}
          sizes={GALLERY_SIZES}
          priority={shown === images[images.length - 1]}
        />
      </div>
      <div className="gallery__strip">
        <Carousel
          {...MOBILE_GALLERY}
          label="Swipe through images"
          items={[...images].reverse().map((image, reversedIndex) => (
            <ProductImage
              key={image}
              src={image}
              alt={`${title}, image ${images.length - reversedIndex} of ${images.length}`}
              width={600}
              height={600}
              sizes="100vw"
              // The first slide (the last image) is the largest picture on a phone: the same URL as the large image.
              priority={reversedIndex === 0}
            />
          ))}
        />
      </div>
      {images.length > 1 ? (
        <KeptMarkup as="ul" attributes={{ className: "gallery__thumbs" }} markupKey={() => `thumbs:${selected}:${JSON.stringify(images)}`}>
          <GalleryThumbs images={images} selected={selected} onSelect={setSelected} />
        </KeptMarkup>
      ) : null}
    </section>
  );
}

function GalleryThumbs({ images, selected, onSelect }: { images: string[]; selected: number; onSelect: (index: number) => void }) {
  return images.map((image, index) => (
    <li key={image}>
      <a
        href={`?image=${index + 1}`}
        className={index === selected ? "gallery__thumb is-selected" : "gallery__thumb"}
        aria-label={`Show image ${index + 1}`}
        aria-current={index === selected ? "true" : undefined}
        onMouseEnter={() => onSelect(index)}
        onFocus={() => onSelect(index)}
        onClick={(event) => {
          event.preventDefault();
          onSelect(index);
        }}
      >
        <ProductImage src={image} alt="" width={80} height={80} />
      </a>
    </li>
  ));
}
