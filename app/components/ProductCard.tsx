import { Link } from "@remix-run/react";
import type { ProductSummary } from "~/catalog/store-product";
import { productPath } from "~/catalog/store-product";
import { financingMonthlyCents, qualifiesForFreeShipping, STRUCK_PRICE_FACTOR } from "~/pricing/pricing";
import { formatUsd, scaleCents } from "~/utils/format";
import { AddToCartButton } from "./AddToCartButton";
import { CompareButton } from "./guides/CompareButton";
import { ProductImage } from "./ProductImage";

export function ProductCard({ product, eager = false }: { product: ProductSummary; eager?: boolean }) {
  const href = productPath(product);
  return (
    <article className="product-card">
      <Link to={href} className="product-card__link" prefetch="intent">
        <ProductImage
          src={product.image}
          alt={product.title}
          width={300}
          height={300}
          loading={eager ? "eager" : "lazy"}
          className="product-card__image"
        />
        <h3 className="product-card__title">{product.title}</h3>
      </Link>
      <p className="product-card__price">
        <span className="price">{formatUsd(product.priceCents)}</span>{" "}
        <s className="price price--struck" aria-label={`Was ${formatUsd(scaleCents(product.priceCents, STRUCK_PRICE_FACTOR.card))}`}>
          {formatUsd(scaleCents(product.priceCents, STRUCK_PRICE_FACTOR.card))}
        </s>
      </p>
      <p className="product-card__financing">As low as {formatUsd(financingMonthlyCents(product.priceCents))}/mo with financing</p>
      {qualifiesForFreeShipping(product.priceCents) ? <p className="label-free-shipping">Free Shipping</p> : null}
      <p className="product-card__warehouse">Leaves Warehouse: 24 Hrs</p>
      <AddToCartButton productKey={product.key} />
      {/* A sibling of the card's product link, never inside it: a form cannot nest in an <a>. */}
      <CompareButton productKey={product.key} />
    </article>
  );
}

export function ProductGrid({ products, label }: { products: ProductSummary[]; label: string }) {
  return (
    <ul className="product-grid" aria-label={label}>
      {products.map((product, index) => (
        <li key={product.key}>
          <ProductCard product={product} eager={index < 4} />
        </li>
      ))}
    </ul>
  );
}

/** Numbered page links; the current page is highlighted and announced. */
export function Pagination({ page, pageCount, hrefFor }: { page: number; pageCount: number; hrefFor: (page: number) => string }) {
  if (pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      <ul>
        {Array.from({ length: pageCount }, (_, index) => index + 1).map((number) => (
          <li key={number}>
            <Link
              to={hrefFor(number)}
              className={number === page ? "pagination__page is-current" : "pagination__page"}
              aria-current={number === page ? "page" : undefined}
              aria-label={`Page ${number}`}
            >
              {number}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
