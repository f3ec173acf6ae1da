import { memo, Suspense, type ReactNode } from "react";
import {
  type ProductCardData,
  productPath,
  financingMonthlyCents,
  qualifiesForFreeShipping,
  struckPriceCents,
  formatUsd,
  CARD_IMAGE_SIZES,
  ProductImage,
  SiteLink,
  CARD_LINK_CLASS,
  KeptMarkup,
} from "~/components/shared";
import { leadTime } from "~/catalog/lead-time";
import { CardActions, CardActionsScope, CardsOfForm, useCardFormId } from "./card-actions";
import { pageSlots } from "./pagination";

/**
 * The whole card opens the product (spec section 2) through one link, the title's: its ::after
 * covers the card, so there is no second link and nothing interactive nested in it. Forms on the
 * card (ADD TO CART, and any other button) sit beside the link and above its cover.
 * The link is a plain <a> and the card's form a plain form: the list around the cards
 * (`CardActionsScope`) navigates, prefetches and posts for all of them at once.
 *
 * On the server a card already drawn with the same data is written from the markup cache
 * (decision 031): its markup depends on its props and its list's form id only, which its key says.
 */
export const ProductCard = memo(function ProductCard(props: CardProps) {
  const formId = useCardFormId();
  return (
    <KeptMarkup
      as="article"
      attributes={{ className: "product-card" }}
      markupKey={() => `card:${JSON.stringify(formId)}:${props.eager ? "e" : ""}${props.priority ? "p" : ""}:${cardKeyText(props.product)}`}
      alone={(contents) => <CardsOfForm formId={formId}>{contents}</CardsOfForm>}
    >
      <CardContents {...props} />
    </KeptMarkup>
  );
});

/**
 * A card's data as its markup key writes it, made once per card object: the cards of a memoized list
 * are the same objects page after page (a card whose stock line changes is a new one).
 */
function cardKeyText(product: ProductCardData): string {
  let text = cardKeyTexts.get(product);
  if (text === undefined) cardKeyTexts.set(product, (text = JSON.stringify(product)));
  return text;
}

const cardKeyTexts = new WeakMap<ProductCardData, string>();

interface CardProps {
  product: ProductCardData;
  eager?: boolean;
  priority?: boolean;
}

function CardContents({ product, eager = false, priority = false }: CardProps) {
  const href = productPath(product);
  return (
    <>
      <ProductImage
        src={product.image}
        alt=""
        width={300}
        height={300}
        sizes={CARD_IMAGE_SIZES}
        loading={eager ? "eager" : "lazy"}
        priority={priority}
        className="product-card__image"
      />
      <h3 className="product-card__title">
        <a href={href} className={CARD_LINK_CLASS}>
          {product.title}
        </a>
      </h3>
      {/* What tells this card from its siblings (colour, fuel, size...): never clamped, unlike the title. */}
      {product.facts.length > 0 ? <p className="product-card__facts">{factsLine(product.facts)}</p> : null}
      <p className="product-card__price">
        {product.onSale ? <SaleLabel /> : null}
        <span className="price">{formatUsd(product.priceCents)}</span>{" "}
        <s className="price price--struck" aria-label={`Was ${formatUsd(struckPriceCents(product, "card"))}`}>
          {formatUsd(struckPriceCents(product, "card"))}
        </s>
      </p>
      <p className="product-card__financing">{`As low as ${formatUsd(financingMonthlyCents(product.priceCents))}/mo with financing`}</p>
      {qualifiesForFreeShipping(product.priceCents) ? <p className="label-free-shipping">Free Shipping</p> : null}
      <p className={product.soldOut ? "product-card__warehouse product-card__warehouse--out" : "product-card__warehouse"}>
        {product.stock ?? leadTime(product.brand).card}
      </p>
      {/* A sibling of the card's product link, never inside it: a form cannot nest in an <a>. */}
      <CardActions productKey={product.key} soldOut={product.soldOut} />
    </>
  );
}

/** Beside a price while the merchant's sale runs: "Sale", read as "Sale price" (the product and seasoning pages write the same). */
function SaleLabel() {
  return (
    <span className="sale-label">
      Sale<span className="visually-hidden"> price</span>{" "}
    </span>
  );
}

/**
 * "Stainless · Propane · <span>Sear Zone</span>": a fact that could break inside (a space or a
 * hyphen) is a span the style sheet keeps whole; the rest, separators included, is one text.
 */
function factsLine(facts: readonly string[]): ReactNode[] {
  const parts: ReactNode[] = [];
  let text = "";
  facts.forEach((fact, index) => {
    if (index > 0) text += " · ";
    if (!/[\s-]/.test(fact)) {
      text += fact;
      return;
    }
    if (text) parts.push(text);
    parts.push(<span key={index}>{fact}</span>);
    text = "";
  });
  if (text) parts.push(text);
  return parts;
}

/** Cards per Suspense boundary: React hydrates each boundary as a task of its own, so a long list never blocks a phone for long. */
const CARDS_PER_HYDRATION_TASK = 12;

export function ProductGrid({ products, label }: { products: readonly ProductCardData[]; label: string }) {
  const groups = Array.from({ length: Math.ceil(products.length / CARDS_PER_HYDRATION_TASK) }, (_, group) =>
    products.slice(group * CARDS_PER_HYDRATION_TASK, (group + 1) * CARDS_PER_HYDRATION_TASK),
  );
  return (
    <CardActionsScope
      renderList={(handlers) => (
        <ul className="product-grid" aria-label={label} {...handlers}>
          {groups.map((group, groupIndex) => (
            <Suspense key={group[0].key} fallback={null}>
              {group.map((product, index) => (
                <li key={product.key}>
                  <ProductCard product={product} eager={groupIndex === 0 && index < 4} priority={groupIndex === 0 && index === 0} />
                </li>
              ))}
            </Suspense>
          ))}
        </ul>
      )}
    />
  );
}

/** Numbered page links around the current page (pagination.ts); the current page is highlighted and announced. */
export function Pagination({ page, pageCount, hrefFor }: { page: number; pageCount: number; hrefFor: (page: number) => string }) {
  if (pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      <ul>
        {pageSlots(page, pageCount).map((slot, index) =>
          slot === "gap" ? (
            <li key={`gap-${index}`} className="pagination__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={slot}>
              <SiteLink
                to={hrefFor(slot)}
                className={slot === page ? "pagination__page is-current" : "pagination__page"}
                aria-current={slot === page ? "page" : undefined}
                aria-label={`Page ${slot}`}
              >
                {slot}
              </SiteLink>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
