/**
 * What the carousel shares with every page's first script (through ~/components/shared). The carousel
 * itself (./Carousel.tsx) is loaded on demand, by each module that draws one: it imports
 * ~/components/shared, so a loader behind shared.ts would be an import circle.
 */
export { hasInteracted, INTERACTIONS } from "./interaction";
export { cssVariables, PRODUCT_CAROUSEL, swiperBreakpoints, TESTIMONIAL_CAROUSEL, type CarouselOptions } from "./options";
