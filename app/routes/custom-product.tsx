import { getProductById, randomProducts, publicBaseUrl } from "~/server-api";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { OWN_SEASONING_ID, formatUsd, scaleCents, SINGLE_PRODUCT_MAX_QUANTITY, STRUCK_PRICE_FACTOR } from "~/components/shared";
import { specMap } from "~/catalog/variations";
import { ProductCarousel } from "~/components/ProductCarousel";
import { ProductGallery } from "~/components/ProductGallery";
import { QuantityField } from "~/components/QuantityField";

const RELATED_COUNT = 10;

export async function loader({ context }: LoaderFunctionArgs) {
  const db = context.store.db;
  const [product, related] = await Promise.all([getProductById(db, OWN_SEASONING_ID), randomProducts(db, RELATED_COUNT + 1)]);
  if (!product) throw new Response("LOVE RUB is not in the catalog", { status: 404 });
  return {
    product: { ...product, description: undefined },
    related: related.filter((item) => item.id !== OWN_SEASONING_ID && item.image).slice(0, RELATED_COUNT),
    origin: publicBaseUrl(context.store.config),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: "LOVE RUB All-Purpose BBQ Seasoning" },
  { name: "description", content: "LOVE RUB, our own all-purpose BBQ seasoning. $15.99, ships within 24 hours." },
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
              availability: "https://schema.org/InStock",
            },
          },
        },
      ]
    : []),
];

export default function CustomProduct() {
  const { product, related } = useLoaderData<typeof loader>();
  const specs = [...specMap(product.specifications)];
  return (
    <div className="container product-detail">
      <div className="product-detail__top">
        <ProductGallery images={product.images} title={product.title} initialIndex={product.images.length - 1} />
        <section className="product-detail__buy" aria-labelledby="product-title">
          <h1 id="product-title">{product.title}</h1>
          <p className="product-detail__price">
            <s
              className="price price--struck"
              aria-label={`Was ${formatUsd(scaleCents(product.priceCents, STRUCK_PRICE_FACTOR.seasoning))}`}
            >
              {formatUsd(scaleCents(product.priceCents, STRUCK_PRICE_FACTOR.seasoning))}
            </s>{" "}
            <span className="price price--large">{formatUsd(product.priceCents)}</span>
          </p>
          <p className="in-stock">In Stock</p>
          <p className="shipping-note">Ships within 24 hours</p>
          <dl className="seasoning-specs">
            {specs.map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <Form discover="none" method="get" action="/custom-product-checkout" className="buy-form">
            <QuantityField id="seasoning-quantity" name="quantity" max={SINGLE_PRODUCT_MAX_QUANTITY} />
            <div className="buy-form__buttons">
              <button type="submit" className="button button--dark">
                BUY NOW
              </button>
            </div>
          </Form>
        </section>
      </div>
      {related.length > 0 ? <ProductCarousel label="You May Also Like" products={related} /> : null}
    </div>
  );
}
