import { type CarouselOptions, deferred } from "~/components/shared";

/** Spec section 9: the checkout-area carousel shows 4 slides on desktop (then 3, 2, 1 like the others). */
export const CHECKOUT_PRODUCT_SLIDES: NonNullable<CarouselOptions["slidesPerView"]> = { default: 4, 1024: 3, 768: 2, 550: 1 };

/** A titled row of product cards (ProductCarouselSection.tsx), whose script (the cards' actions, the carousel) loads when it comes near the screen. */
export const ProductCarousel = deferred(() => import("./ProductCarouselSection").then((module) => module.ProductCarouselSection));
