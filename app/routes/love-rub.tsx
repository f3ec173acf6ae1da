import { getProductById, logError } from "~/server-api";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { OWN_SEASONING_PRICE, OWN_SEASONING_ID, ProductImage, formatUsd, priceToCents, SiteLink } from "~/components/shared";
import { TestimonialBlock, TestimonialCarousel } from "~/components/Testimonials";
import type { RootLoaderData, RouteHandle } from "~/root";
import contentStyles from "~/styles/content.css";
import loveRubStyles from "~/styles/love-rub.css";

/** Rendered without the store's header and footer (root.tsx reads this). */
export const handle: RouteHandle = { bareLayout: true };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: contentStyles },
  { rel: "stylesheet", href: loveRubStyles },
];

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const store = (matches.find((match) => match.id === "root")?.data as RootLoaderData | undefined)?.store;
  const price = formatUsd(data?.priceCents ?? priceToCents(OWN_SEASONING_PRICE));
  return [
    { title: `LOVE RUB All-Purpose BBQ Seasoning | ${store?.storeName ?? "Outdoor Kitchen Outlet"}` },
    {
      name: "description",
      content: `LOVE RUB: our own sweet, smoky all-purpose BBQ rub for ribs, brisket, chicken and vegetables. ${price} a jar, ships within 24 hours.`,
    },
  ];
};

export async function loader({ context }: LoaderFunctionArgs) {
  // The seasoning's price comes from the catalog; before it is loaded, the spec's price stands in.
  const product = await getProductById(context.store.db, OWN_SEASONING_ID).catch((error: unknown) => {
    logError("LOVE RUB product could not be read", error);
    return null;
  });
  return {
    priceCents: product?.priceCents ?? priceToCents(OWN_SEASONING_PRICE),
    image: product?.image ?? null,
  };
}

const FEATURES = [
  {
    title: "Sweet meets smoke",
    text: "Brown sugar and smoked paprika build a deep mahogany bark that caramelizes over the fire.",
  },
  {
    title: "Warmth, not burn",
    text: "Black pepper, chili powder and a touch of cayenne bring a gentle heat that lets the meat shine.",
  },
  {
    title: "Simple, honest ingredients",
    text: "Ten pantry spices and sea salt. No major food allergens in the recipe.",
  },
  {
    title: "Blended in the USA",
    text: "Mixed and packed in the United States, in a 6 oz jar that fits every grill-side shelf.",
  },
];

const SHINES = [
  { title: "Ribs and pork shoulder", text: "Rub it on the night before for a sticky, sweet-smoky bark." },
  { title: "Brisket and steak", text: "A generous coat gives a peppery crust with a hint of sweetness." },
  { title: "Chicken and wings", text: "Crisp, glossy skin with color that looks as good as it tastes." },
  { title: "Vegetables and corn", text: "A light dusting turns grilled corn, peppers and potatoes into a side dish people remember." },
];

const REASONS = [
  "Created by a team that sells and cooks on grills every day.",
  "Works on gas, charcoal, pellet and kamado grills, and in the oven.",
  "Ships within 24 hours of your order.",
  "New customers save 10% on their first purchase with the code LOVERUB10.",
];

export default function LoveRubLanding() {
  const { priceCents, image } = useLoaderData<typeof loader>();
  const price = formatUsd(priceCents);
  const pageRef = useRevealOnScroll();

  return (
    <div className="love-rub" ref={pageRef}>
      <header className="love-rub__top">
        <SiteLink to="/" className="love-rub__home">
          <span aria-hidden="true">←</span> Back to the store
        </SiteLink>
      </header>
      <main id="main">
        <section className="love-rub__hero" aria-labelledby="love-rub-title">
          <div className="love-rub__hero-text" data-reveal="">
            <p className="love-rub__eyebrow">Our own all-purpose BBQ seasoning</p>
            <h1 id="love-rub-title">LOVE RUB</h1>
            <p className="love-rub__tagline">Made with love, finished with fire.</p>
            <p>One jar for ribs, brisket, chicken and everything that comes off your grill: sweet, smoky and just spicy enough.</p>
            <p className="love-rub__hero-actions">
              <SiteLink className="love-rub__button" to="/custom-product">
                Order LOVE RUB for {price}
              </SiteLink>
            </p>
          </div>
          {image ? (
            <div className="love-rub__hero-image" data-reveal="">
              <ProductImage src={image} alt="A jar of LOVE RUB all-purpose BBQ seasoning" width={480} height={480} loading="eager" />
            </div>
          ) : null}
        </section>

        <section className="love-rub__section" aria-labelledby="special-heading">
          <h2 id="special-heading" data-reveal="">
            What Makes It Special
          </h2>
          <ul className="love-rub__features">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="love-rub__card" data-reveal="">
                <h3>{feature.title}</h3>
                <p>{feature.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section className="love-rub__section" aria-labelledby="shines-heading">
          <h2 id="shines-heading" data-reveal="">
            Where This Shines
          </h2>
          <ul className="love-rub__shines">
            {SHINES.map((item) => (
              <li key={item.title} data-reveal="">
                <h3>{item.title}</h3>
                <p>{item.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section className="love-rub__section" aria-labelledby="why-heading">
          <h2 id="why-heading" data-reveal="">
            Why Choose LOVE RUB
          </h2>
          <ul className="love-rub__reasons" data-reveal="">
            {REASONS.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </section>

        <section className="love-rub__section love-rub__order" aria-labelledby="order-heading" data-reveal="">
          <h2 id="order-heading">Order Yours Today</h2>
          <p className="love-rub__price">
            <span className="visually-hidden">Price: </span>
            {price}
          </p>
          <p>6 oz jar · ships within 24 hours</p>
          <p>
            <SiteLink className="love-rub__button" to="/custom-product">
              Order now
            </SiteLink>
          </p>
        </section>

        <section className="love-rub__section love-rub__reviews" aria-labelledby="reviews-heading">
          <h2 id="reviews-heading" data-reveal="">
            What Grillers Are Saying
          </h2>
          <TestimonialCarousel label="Customer reviews" />
        </section>

        <section className="love-rub__section love-rub__testimonials" data-reveal="">
          <TestimonialBlock headingId="love-rub-testimonials-heading" heading="What our customers say" />
        </section>
      </main>
    </div>
  );
}

/**
 * Fades sections in when 10% of them is visible. Only elements below the
 * fold are hidden, and only with script and without reduced motion, so the
 * page is complete without either.
 */
function useRevealOnScroll() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root || typeof IntersectionObserver === "undefined") return;
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          entry.target.classList.add("is-revealed");
          observer.unobserve(entry.target);
        }
      },
      { threshold: 0.1 },
    );
    root.querySelectorAll<HTMLElement>("[data-reveal]").forEach((element) => {
      const box = element.getBoundingClientRect();
      if (box.top < window.innerHeight && box.bottom > 0) return; // already on screen: leave it be
      element.classList.add("reveal-pending");
      observer.observe(element);
    });
    return () => observer.disconnect();
  }, []);
  return ref;
}
