import type { ProductCardData } from "~/catalog/store-product";
import { Carousel, PRODUCT_CAROUSEL } from "./carousel";
import { ProductCard } from "./ProductCard";

/** A titled row of product cards; swipeable with script, a scrollable row without. */
export function ProductCarousel({ label, products }: { label: string; products: ProductCardData[] }) {
  const headingId = `carousel-${label.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section className="product-carousel" aria-labelledby={headingId}>
      <h2 id={headingId}>{label}</h2>
      <Carousel
        {...PRODUCT_CAROUSEL}
        label={label}
        items={products.map((product) => (
          <ProductCard key={product.key} product={product} />
        ))}
      />
    </section>
  );
}
