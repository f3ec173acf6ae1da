import type { ProductSummary } from "~/catalogue/store-product";
import { ProductCard } from "./ProductCard";

/** A titled row of product cards; swipeable with script, a scrollable row without. */
export function ProductCarousel({ label, products }: { label: string; products: ProductSummary[] }) {
  const headingId = `carousel-${label.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section className="product-carousel" aria-labelledby={headingId}>
      <h2 id={headingId}>{label}</h2>
      <ul className="scroll-row" tabIndex={0} aria-label={label}>
        {products.map((product) => (
          <li key={product.key}>
            <ProductCard product={product} />
          </li>
        ))}
      </ul>
    </section>
  );
}
