import { deferred } from "../deferred";

/** The carousel's script (and its hydration) waits until a carousel comes near the screen. */
export const Carousel = deferred(() => import("./Carousel").then((module) => module.Carousel));
export { hasInteracted, INTERACTIONS } from "./interaction";
export { cssVariables, PRODUCT_CAROUSEL, swiperBreakpoints, TESTIMONIAL_CAROUSEL, type CarouselOptions } from "./options";
