import type { ReactNode } from "react";
import { productPath, ProductImage, formatUsd, SiteLink } from "~/components/shared";

/** A guide's list of products: picture, linked title, price and the facts that made it qualify. */
export function GuideResults<P extends { key: string; id: string; title: string; priceCents: number; image: string }>({
  products,
  facts,
  label,
}: {
  products: P[];
  facts: (product: P) => Array<[string, ReactNode]>;
  label: string;
}) {
  return (
    <ol className="guide-results" aria-label={label}>
      {products.map((product) => (
        <li key={product.key} className="guide-result">
          <ProductImage src={product.image} alt="" width={200} height={200} />
          <h3 className="guide-result__title">
            <SiteLink to={productPath(product)}>{product.title}</SiteLink>
          </h3>
          <p className="price">{formatUsd(product.priceCents)}</p>
          <dl>
            {facts(product).map(([term, value]) => (
              <div key={term} style={{ display: "contents" }}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ol>
  );
}
