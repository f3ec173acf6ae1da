import { type ProductCardData, Carousel, PRODUCT_CAROUSEL, type CarouselOptions } from "~/components/shared";
import { CardActionsScope } from "./card-actions";
import { ProductCard } from "./ProductCard";

/** Spec section 9: the checkout-area carousel shows 4 slides on desktop (then 3, 2, 1 like the others). */
export const CHECKOUT_PRODUCT_SLIDES: NonNullable<CarouselOptions["slidesPerView"]> = { default: 4, 1024: 3, 768: 2, 550: 1 };

/** A titled row of product cards; swipeable with script, a scrollable row without. */
export function ProductCarousel({
  label,
  products,
  slidesPerView = PRODUCT_CAROUSEL.slidesPerView,
}: {
  label: string;
  products: ProductCardData[];
  slidesPerView?: CarouselOptions["slidesPerView"];
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
            items={products.map((product) => (
              <ProductCard key={product.key} product={product} />
            ))}
          />
        </section>
      )}
    />
  );
}
