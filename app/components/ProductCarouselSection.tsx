import { type ProductCardData, deferred, PRODUCT_CAROUSEL, type CarouselOptions } from "~/components/shared";
import { CardActionsScope } from "./card-actions";
import { ProductCard } from "./ProductCard";

/** The carousel's script (and its hydration) waits until a carousel comes near the screen. */
const Carousel = deferred(() => import("./carousel/Carousel").then((module) => module.Carousel));

/** Cards of a row above the fold whose pictures load at once (as many as a wide screen shows). */
const EAGER_CARDS = 4;

/**
 * A titled row of product cards; swipeable with script, a scrollable row without. `aboveTheFold`
 * for a row the first screen shows: its first pictures load at once, the first fetched first.
 */
export function ProductCarouselSection({
  label,
  products,
  slidesPerView = PRODUCT_CAROUSEL.slidesPerView,
  aboveTheFold = false,
}: {
  label: string;
  products: readonly ProductCardData[];
  slidesPerView?: CarouselOptions["slidesPerView"];
  aboveTheFold?: boolean;
}) {
  const headingId = `carousel-${label.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <CardActionsScope
      renderList={(handlers) => (
        <section className="product-carousel" aria-labelledby={headingId} {...handlers}>
          <h2 id={headingId}>{label}</h2>
          <Carousel
            {...PRODUCT_CAROUSEL}
            slidesPerView={slidesPerView}
            label={label}
            items={products.map((product, index) => (
              <ProductCard
                key={product.key}
                product={product}
                eager={aboveTheFold && index < EAGER_CARDS}
                priority={aboveTheFold && index === 0}
              />
            ))}
          />
        </section>
      )}
    />
  );
}
