import {
  redirect,
  generateDescription,
  cachedProductByKey,
  cachedRelatedProducts,
  cachedStoredDescription,
  cachedVariationSiblings,
  catalogueHeaders,
  cachedFitLists,
  cardList,
  keptFitFacts,
  productPageParts,
  publicBaseUrl,
  productStock,
  stockLevels,
  withCardStock,
} from "~/server-api";
import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Await, Form, useFetcher, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { Suspense, useState } from "react";
import {
  brandDisplayName,
  OWN_SEASONING_ID,
  parseProductKey,
  deferred,
  brandPath,
  categoryPath,
  picturePreload,
  formatUsd,
  useHydrated,
  type StoreProduct,
  struckPriceCents,
  SiteLink,
  qualifiesForFreeShipping,
  KeptMarkup,
} from "~/components/shared";
import type { ErrorTexts } from "~/components/ErrorPage";
import { CONFIGURATION_NOT_AVAILABLE, findVariant, specMap, type VariationOption } from "~/catalog/variations";
import { FinancingLine } from "~/components/financing-line-on-demand";
import { CompareButton } from "~/components/guides/compare-button-on-demand";
import { FormattedText } from "~/components/FormattedText";
import { ProductCarousel } from "~/components/ProductCarousel";
import { GALLERY_SIZES, ProductGallery } from "~/components/ProductGallery";
import { QuantityField } from "~/components/QuantityField";
import type { action as cartAction } from "./cart";

/** The error page's script loads only when one is drawn (not behind ~/components/shared: it imports that). */
const ErrorPage = deferred(() => import("~/components/ErrorPage").then((module) => module.ErrorPage));
/** "Notify me" shows only on a product out of stock: its script loads then, never with the page. */
const NotifyMeForm = deferred(() => import("~/components/NotifyMeForm").then((module) => module.NotifyMeForm));

const RELATED_LIMIT = 15;
const SPEC_PARAM_PREFIX = "spec.";

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const key = params.productKey ?? "";
  const parsed = parseProductKey(key);
  // Both the bare id (/product/LOVE-RUB-001) and the brand-id form open the seasoning's own page.
  if (key === OWN_SEASONING_ID || parsed?.Id === OWN_SEASONING_ID) throw redirect("/custom-product");
  const db = context.store.db;
  // The stored description needs only the key: asked for alongside the product, not after it.
  const storedText = parsed ? cachedStoredDescription(db, key) : Promise.resolve(null);
  storedText.catch(() => {}); // awaited below; a 404 must not leave it unhandled
  const product = parsed ? await cachedProductByKey(db, key) : null;
  if (!product) throw new Response("Product not found", { status: 404 });

  const url = new URL(request.url);
  const fitFacts = keptFitFacts(product);
  const [siblings, related, stored, [accessories, fitsGrills]] = await Promise.all([
    cachedVariationSiblings(db, product),
    cachedRelatedProducts(db, {
      categories: product.categories.filter((name) => name !== "Home").slice(-2),
      excludeKey: product.key,
      limit: RELATED_LIMIT,
    }),
    storedText,
    cachedFitLists(db, fitFacts),
  ]);
  const chosen = chosenVariation(url.searchParams);
  let variationError: string | null = null;
  if (Object.keys(chosen).length > 0) {
    const match = findVariant([product, ...siblings], chosen);
    if (match && match.key !== product.key) throw redirect(`/product/${encodeURIComponent(match.key)}`);
    if (!match) variationError = CONFIGURATION_NOT_AVAILABLE;
  }

  const { variations, body, legal } = productPageParts(product, siblings);
  // Stock changes with every sale: read for this request (one query for the product and every card shown), never memoized.
  const levels = await stockLevels(
    db,
    [product, ...related, ...accessories, ...fitsGrills].map((shown) => shown.key),
  );
  return {
    product: { ...product, description: undefined },
    stock: productStock(levels, product.key, { freeShipping: qualifiesForFreeShipping(product.priceCents) }),
    legal,
    variations,
    variationError,
    related: withCardStock(cardList(related), levels),
    accessories: withCardStock(cardList(accessories), levels),
    fitsGrills: withCardStock(cardList(fitsGrills), levels),
    imageIndex: imageIndexParam(url.searchParams, product.images.length),
    origin: publicBaseUrl(context.store.config),
    // A stored description is sent with the page. Otherwise the page is sent at once and the
    // reformatted text is streamed when the generator is done; browsers without script, which
    // cannot swap streamed content in, get the original text in a <noscript>.
    description: stored ?? generateDescription(db, context.store.textGenerator, product),
    originalDescription: stored ? null : body,
  };
}

export const headers: HeadersFunction = catalogueHeaders;

function chosenVariation(search: URLSearchParams): Record<string, string> {
  const chosen: Record<string, string> = {};
  for (const [name, value] of search) {
    if (name.startsWith(SPEC_PARAM_PREFIX) && value) chosen[name.slice(SPEC_PARAM_PREFIX.length)] = value;
  }
  return chosen;
}

/** ?image=N (1-based) picks the large image without script; the default is the last one. */
function imageIndexParam(search: URLSearchParams, count: number): number {
  const requested = Number.parseInt(search.get("image") ?? "", 10);
  return Number.isInteger(requested) && requested >= 1 && requested <= count ? requested - 1 : count - 1;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: "Product not found" }];
  const { product, origin, stock } = data;
  const url = `${origin}/product/${encodeURIComponent(product.key)}`;
  return [
    { title: product.title },
    {
      name: "description",
      content: `${product.title}. ${formatUsd(product.priceCents)}, ${stock.label.toLowerCase()}, free shipping over $49.`,
    },
    { tagName: "link", rel: "canonical", href: url },
    ...(product.images[data.imageIndex] ? [picturePreload(product.images[data.imageIndex], GALLERY_SIZES)] : []),
    { property: "og:title", content: product.title },
    { property: "og:image", content: `${origin}${product.image}` },
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "Product",
        name: product.title,
        sku: product.id,
        mpn: product.model || undefined,
        brand: { "@type": "Brand", name: brandDisplayName(product.brand) },
        image: product.images.map((image) => `${origin}${image}`),
        category: product.categories.filter((name) => name !== "Home").join(" > "),
        offers: {
          "@type": "Offer",
          url,
          priceCurrency: "USD",
          price: (product.priceCents / 100).toFixed(2),
          availability: stock.schemaOrg,
          itemCondition: "https://schema.org/NewCondition",
        },
      },
    },
  ];
};

export default function ProductDetail() {
  const {
    product,
    stock,
    legal,
    variations,
    variationError,
    related,
    accessories,
    fitsGrills,
    imageIndex,
    description,
    originalDescription,
  } = useLoaderData<typeof loader>();
  const categories = product.categories.filter((name) => name !== "Home");
  return (
    <div className="container product-detail">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          {categories.map((name) => (
            <li key={name}>
              <SiteLink to={categoryPath(name)}>{name}</SiteLink>
            </li>
          ))}
          <li>Id: {product.id}</li>
          {product.model ? <li aria-current="page">Model: {product.model}</li> : null}
        </ol>
      </nav>
      <div className="product-detail__top">
        <ProductGallery images={product.images} title={product.title} initialIndex={imageIndex} />
        <section className="product-detail__buy" aria-labelledby="product-title">
          <h1 id="product-title">{product.title}</h1>
          <p className="product-detail__brand">
            Brand: <SiteLink to={brandPath(product.brand)}>{brandDisplayName(product.brand)}</SiteLink>
          </p>
          <p className="product-detail__price">
            <s className="price price--struck" aria-label={`Was ${formatUsd(struckPriceCents(product, "detail"))}`}>
              {formatUsd(struckPriceCents(product, "detail"))}
            </s>{" "}
            {product.onSale ? (
              <span className="sale-label">
                Sale<span className="visually-hidden"> price</span>{" "}
              </span>
            ) : null}
            <span className="price price--large">{formatUsd(product.priceCents)}</span>
          </p>
          <p className="product-detail__availability">
            <span className={`stock-status stock-status--${stock.kind}`}>{stock.label}</span>{" "}
            {stock.note ? <span className="shipping-note">{stock.note}</span> : null}
          </p>
          {/* Buying comes before the options, so both buttons are on a phone's first screen; an option still changes the product above them. */}
          {stock.buyable ? (
            <BuyForm productKey={product.key} max={stock.max} />
          ) : (
            <NotifyMeForm productKey={product.key} productTitle={product.title} />
          )}
          {variations.length > 0 ? <VariationForm productKey={product.key} options={variations} error={variationError} /> : null}
          <FinancingLine priceCents={product.priceCents} />
          <CompareButton productKey={product.key} />
        </section>
      </div>
      {accessories.length > 0 ? <ProductCarousel label="Accessories for this grill" products={accessories} /> : null}
      {fitsGrills.length > 0 ? <ProductCarousel label="Fits these grills" products={fitsGrills} /> : null}
      {related.length > 0 ? <ProductCarousel label="Related Products" products={related} /> : null}
      <section className="product-detail__description" aria-labelledby="description-heading">
        <h2 id="description-heading">Description</h2>
        <Suspense fallback={<DescriptionSkeleton original={originalDescription} />}>
          <Await resolve={description} errorElement={<DescriptionSkeleton />}>
            {(text) => <FormattedText text={text} />}
          </Await>
        </Suspense>
        {legal ? (
          <>
            <h2>Legal disclaimers and warnings</h2>
            <div className="legal-text">
              {legal.split(/\n{2,}/).map((paragraph, index) => (
                <p key={index}>{paragraph}</p>
              ))}
            </div>
          </>
        ) : null}
      </section>
      <SpecificationsTable specifications={product.specifications} />
    </div>
  );
}

function DescriptionSkeleton({ original }: { original?: string | null }) {
  return (
    <>
      <div className="skeleton js-only" aria-busy="true" aria-label="Loading description">
        <span />
        <span />
        <span />
        <span />
      </div>
      {original ? (
        <noscript>
          <FormattedText text={original} />
        </noscript>
      ) : null}
    </>
  );
}

/**
 * ADD TO CART stays on the page; BUY NOW goes to the single-product checkout. Both work without script.
 * `max`: the units left of a tracked product (the cart refuses more, and says how many are left).
 */
function BuyForm({ productKey, max }: { productKey: string; max: number | null }) {
  const fetcher = useFetcher<typeof cartAction>();
  const location = useLocation();
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "add";
  return (
    <fetcher.Form method="post" action="/cart" className="buy-form">
      <input type="hidden" name="productKey" value={productKey} />
      <input type="hidden" name="redirectTo" value={location.pathname} />
      <input type="hidden" name="mode" value={hydrated ? "fetch" : "document"} />
      <QuantityField id="detail-quantity" name="quantity" max={max ?? undefined} />
      <div className="buy-form__buttons">
        <button type="submit" name="intent" value="add" className="button button--primary" disabled={busy}>
          {busy ? "Adding…" : "ADD TO CART"}
        </button>
        <button type="submit" name="intent" value="buy" className="button button--dark">
          BUY NOW
        </button>
      </div>
      <p className="add-to-cart__status" role="status">
        {fetcher.data && fetcher.state === "idle" ? (fetcher.data.ok ? "Added to cart" : fetcher.data.message) : ""}
      </p>
    </fetcher.Form>
  );
}

/**
 * One dropdown per specification in which a sibling differs. A GET form to
 * this page: the loader moves to the matching sibling or reports that the
 * combination does not exist (and the dropdowns show this product again).
 */
function VariationForm({ productKey, options, error }: { productKey: string; options: VariationOption[]; error: string | null }) {
  const hydrated = useHydrated();
  const [dismissed, setDismissed] = useState(false);
  return (
    <Form discover="none" method="get" action={`/product/${encodeURIComponent(productKey)}`} className="variations" key={productKey}>
      {error && !dismissed ? (
        <p className="notice notice--error" role="alert">
          {error}{" "}
          {hydrated ? (
            <button type="button" className="link-button" onClick={() => setDismissed(true)}>
              Dismiss
            </button>
          ) : null}
        </p>
      ) : null}
      {options.map((option) => (
        <div key={option.name} className="field">
          <label htmlFor={`variation-${option.name}`}>{option.name}</label>
          <select
            id={`variation-${option.name}`}
            name={`${SPEC_PARAM_PREFIX}${option.name}`}
            defaultValue={option.selected}
            onChange={(event) => hydrated && event.currentTarget.form?.requestSubmit()}
          >
            {option.selected === "" ? <option value="">Choose…</option> : null}
            {option.values.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
      ))}
      <button type="submit" className={hydrated ? "visually-hidden" : "button button--small"}>
        Update options
      </button>
    </Form>
  );
}

function SpecificationsTable({ specifications }: { specifications: StoreProduct["specifications"] }) {
  const rows = [...specMap(specifications)].filter(([name]) => name !== "Details");
  if (rows.length === 0) return null;
  return (
    <section className="specifications" aria-labelledby="specifications-heading">
      <h2 id="specifications-heading">Specifications</h2>
      <table>
        <KeptMarkup as="tbody" markupKey={() => `specifications:${JSON.stringify(rows)}`}>
          <SpecificationRows rows={rows} />
        </KeptMarkup>
      </table>
    </section>
  );
}

function SpecificationRows({ rows }: { rows: [string, string][] }) {
  return rows.map(([name, value]) => (
    <tr key={name}>
      <th scope="row">{name}</th>
      <td>{value}</td>
    </tr>
  ));
}

const PRODUCT_ERROR_TEXTS: ErrorTexts = {
  404: { title: "Product not found", message: "This product is no longer in our catalog, or the link is mistyped." },
};

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} texts={PRODUCT_ERROR_TEXTS} />;
}
