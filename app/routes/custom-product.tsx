import { getProductById, randomProducts, publicBaseUrl, productStock, stockLevels, withCardStock } from "~/server-api";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { OWN_SEASONING_ID, deferred, formatUsd, SINGLE_PRODUCT_MAX_QUANTITY, struckPriceCents } from "~/components/shared";
import { specMap } from "~/catalog/variations";
import { ProductCarousel } from "~/components/ProductCarousel";
import { ProductGallery } from "~/components/ProductGallery";
import { QuantityField } from "~/components/QuantityField";

const RELATED_COUNT = 10;

/** "Notify me" shows only while the seasoning is out of stock: its script loads then, never with the page. */
const NotifyMeForm = deferred(() => import("~/components/NotifyMeForm").then((module) => module.NotifyMeForm));

export async function loader({ context }: LoaderFunctionArgs) {
  const db = context.store.db;
  const [product, related] = await Promise.all([getProductById(db, OWN_SEASONING_ID), randomProducts(db, RELATED_COUNT + 1)]);
  if (!product) throw new Response("LOVE RUB is not in the catalog", { status: 404 });
  const shown = related.filter((item) => item.id !== OWN_SEASONING_ID && item.image).slice(0, RELATED_COUNT);
  // Read for this request, with the cards below it: one query.
  const levels = await stockLevels(
    db,
    [product, ...shown].map((item) => item.key),
  );
  const stock = productStock(levels, product.key);
  return {
    product: { ...product, description: undefined },
    stock: {
      ...stock,
      // The spec's note for the seasoning in stock; none while there is none to ship.
      note: stock.kind === "in-stock" || stock.kind === "low" ? "Ships within 24 hours" : stock.note,
      max: Math.min(SINGLE_PRODUCT_MAX_QUANTITY, stock.max ?? SINGLE_PRODUCT_MAX_QUANTITY),
    },
    related: withCardStock(shown, levels),
    origin: publicBaseUrl(context.store.config),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: "LOVE RUB All-Purpose BBQ Seasoning" },
  {
    name: "description",
    content: `LOVE RUB, our own all-purpose BBQ seasoning. ${data ? formatUsd(data.product.priceCents) : "$15.99"}, ${data?.stock.buyable === false ? "out of stock" : "ships within 24 hours"}.`,
  },
  ...(data
    ? [
        { tagName: "link", rel: "canonical", href: `${data.origin}/custom-product` },
        {
          "script:ld+json": {
            "@context": "https://schema.org",
            "@type": "Product",
            name: data.product.title,
            sku: data.product.id,
            brand: { "@type": "Brand", name: "LOVE RUB" },
            image: data.product.images.map((image) => `${data.origin}${image}`),
            offers: {
              "@type": "Offer",
              priceCurrency: "USD",
              price: (data.product.priceCents / 100).toFixed(2),
              availability: data.stock.schemaOrg,
            },
          },
        },
      ]
    : []),
];

export default function CustomProduct() {
  const { product, stock, related } = useLoaderData<typeof loader>();
  const specs = [...specMap(product.specifications)];
  return (
    <div className="container product-detail">
      <div className="product-detail__top">
        <ProductGallery images={product.images} title={product.title} initialIndex={product.images.length - 1} />
        <section className="product-detail__buy" aria-labelledby="product-title">
          <h1 id="product-title">{product.title}</h1>
          <p className="product-detail__price">
            <s className="price price--struck" aria-label={`Was ${formatUsd(struckPriceCents(product, "seasoning"))}`}>
              {formatUsd(struckPriceCents(product, "seasoning"))}
            </s>{" "}
            {product.onSale ? (
              <span className="sale-label">
                Sale<span className="visually-hidden"> price</span>{" "}
              </span>
            ) : null}
            <span className="price price--large">{formatUsd(product.priceCents)}</span>
          </p>
          <p className={`stock-status stock-status--${stock.kind}`}>{stock.label}</p>
          {stock.note ? <p className="shipping-note">{stock.note}</p> : null}
          <dl className="seasoning-specs">
            {specs.map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {stock.buyable ? (
            <Form discover="none" method="get" action="/custom-product-checkout" className="buy-form">
              <QuantityField id="seasoning-quantity" name="quantity" max={stock.max} />
              <div className="buy-form__buttons">
                <button type="submit" className="button button--dark">
                  BUY NOW
                </button>
              </div>
            </Form>
          ) : (
            <NotifyMeForm productKey={product.key} productTitle={product.title} />
          )}
        </section>
      </div>
      {related.length > 0 ? <ProductCarousel label="You May Also Like" products={related} /> : null}
    </div>
  );
}
