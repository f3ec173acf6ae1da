import { cachedRandomProducts, cardList, catalogueHeaders, publicBaseUrl, stockLevels, withCardStock } from "~/server-api";
import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  CARD_IMAGE_SIZES,
  type CarouselOptions,
  brandPath,
  categoryPath,
  deferred,
  picturePreload,
  useStore,
  SiteLink,
} from "~/components/shared";
import { NewsletterPopup } from "~/components/newsletter-popup-on-demand";
import { ProductCarousel } from "~/components/ProductCarousel";

/** The carousel's script (and its hydration) waits until a carousel comes near the screen. */
const Carousel = deferred(() => import("~/components/carousel/Carousel").then((module) => module.Carousel));

const PROMOTION_COUNT = 30;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: "Grills, Outdoor Kitchens & Outdoor Heating | Free Shipping Over $49" },
  {
    name: "description",
    content:
      "Shop gas grills, kamado grills, built-in outdoor kitchens, patio heaters, fire pits and lounge furniture from Blaze, Napoleon, Alfresco and more. Free shipping over $49.",
  },
  ...(data ? [{ tagName: "link", rel: "canonical", href: `${data.origin}/` }] : []),
  // The banners are drawn in CSS: the first screen's largest picture is the first promotion's.
  ...(data?.promotions[0] ? [picturePreload(data.promotions[0].image, CARD_IMAGE_SIZES)] : []),
];

export async function loader({ context }: LoaderFunctionArgs) {
  const promotions = await cachedRandomProducts(context.store.db, PROMOTION_COUNT);
  // Stock is read per request (the picks are memoized for a minute, the stock never): one query for the carousel.
  const levels = await stockLevels(
    context.store.db,
    promotions.map((product) => product.key),
  );
  return { promotions: withCardStock(cardList(promotions), levels), origin: publicBaseUrl(context.store.config) };
}

export const headers: HeadersFunction = catalogueHeaders;

const POPULAR_DEPARTMENTS = [
  "Gas Grills",
  "Built-In Gas Griddles & Flat Top Grills",
  "Built-In Pellet Grills",
  "Kamado Grills & Smokers",
  "BBQ Grilling Tools & Accessories",
  "Built-In Gas Grills",
  "Outdoor Kitchen Cabinets & Storage",
];

const CATEGORY_TILES = [
  { label: "Outdoor Compact Refrigerator", to: categoryPath("Outdoor Compact Refrigerators") },
  { label: "Sales & Offers", to: "/products/all/all" },
  { label: "Outdoor Kitchen Storage", to: categoryPath("Outdoor Kitchen Storage Drawers") },
];

const GET_MORE = [
  { title: "Ask an Expert", text: "Talk to a specialist who has built hundreds of outdoor kitchens.", to: "/contact" },
  { title: "Free Design Services", text: "Free expert renderings of your outdoor kitchen before you buy.", to: "/contact" },
  { title: "Financing Available", text: "As low as 0% APR on qualifying purchases.", href: "https://www.affirm.com/" },
  { title: "Honest Expert Reviews", text: "Straight answers on what to buy, and what to skip.", to: "/contact" },
  { title: "Fast, Free Shipping", text: "Free shipping on orders over $49.", to: "/shipping-policy" },
];

/**
 * The banner carousel (spec section 2: the first banner goes to Blaze, the second to /love-rub).
 * The server renders a scroll-snap row where every banner can be scrolled or tabbed to; with script
 * it becomes a swiper carousel with autoplay, dots and arrows, loaded like every other carousel.
 */
const BANNER_CAROUSEL: CarouselOptions = {
  slidesPerView: { default: 1 },
  autoplayMs: 5000,
  speed: 500,
  loop: true,
  dots: true,
  arrows: true,
  gap: 16,
};

const BANNERS = [
  <SiteLink key="blaze" to={brandPath("blaze")} className="banner banner--blaze">
    <span className="banner__eyebrow">Blaze Grills</span>
    <span className="banner__title">Save up to $450</span>
    <span className="banner__cta">Shop Blaze</span>
  </SiteLink>,
  <SiteLink key="love-rub" to="/love-rub" className="banner banner--rub">
    <span className="banner__eyebrow">Our own seasoning</span>
    <span className="banner__title">LOVE RUB</span>
    <span className="banner__cta">Discover LOVE RUB</span>
  </SiteLink>,
];

export default function Home() {
  const { promotions } = useLoaderData<typeof loader>();
  const { storeName } = useStore();
  return (
    <div className="home">
      {/* The page's one top heading, for screen readers and search engines: the banners say the rest. */}
      <h1 className="visually-hidden">{storeName}: grills, outdoor kitchens and outdoor heating</h1>
      <NewsletterPopup />
      <section className="banners container" aria-label="Promotions">
        <Carousel {...BANNER_CAROUSEL} className="banner-carousel" label="Featured offers" items={BANNERS} />
      </section>

      <div className="container">
        <ProductCarousel label="Promotions" products={promotions} aboveTheFold />
        <p className="home__shop-all">
          <SiteLink className="button button--primary" to="/products/all/all">
            Shop All
          </SiteLink>
        </p>

        <section aria-labelledby="departments-heading">
          <h2 id="departments-heading">Popular Departments</h2>
          <ul className="tiles">
            {POPULAR_DEPARTMENTS.map((name) => (
              <li key={name}>
                <SiteLink to={categoryPath(name)} className="tile">
                  {name}
                </SiteLink>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="categories-tiles-heading">
          <h2 id="categories-tiles-heading">Shop by Category</h2>
          <ul className="tiles tiles--large">
            {CATEGORY_TILES.map((tile) => (
              <li key={tile.label}>
                <SiteLink to={tile.to} className="tile tile--large">
                  {tile.label}
                </SiteLink>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="brands-heading">
          <h2 id="brands-heading">Popular Brands</h2>
          <ul className="brand-logos">
            <li>
              <SiteLink to={brandPath("blaze")} className="brand-logo brand-logo--blaze">
                BLAZE
              </SiteLink>
            </li>
            <li>
              <SiteLink to={brandPath("napoleon")} className="brand-logo brand-logo--napoleon">
                NAPOLEON
              </SiteLink>
            </li>
          </ul>
        </section>

        <section aria-labelledby="get-more-heading" className="get-more">
          <h2 id="get-more-heading">Get More</h2>
          <ul>
            {GET_MORE.map((item) => (
              <li key={item.title}>
                <h3>{item.title}</h3>
                <p>{item.text}</p>
                {item.href ? (
                  <a href={item.href} rel="noopener noreferrer" target="_blank">
                    Sign up for financing<span className="visually-hidden"> (opens in a new tab)</span>
                  </a>
                ) : (
                  <SiteLink to={item.to ?? "/"}>
                    Learn more<span className="visually-hidden"> about {item.title}</span>
                  </SiteLink>
                )}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
