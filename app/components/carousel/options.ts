import type { CSSProperties } from "react";

/** The carousel's settings: how many slides show at each width, and the store's two presets. */

/** Widths (px) at and below which a different number of slides may show. */
export const CAROUSEL_BREAKPOINTS = [1024, 768, 640, 550, 480] as const;
type CarouselBreakpoint = (typeof CAROUSEL_BREAKPOINTS)[number];

/** `default` above every breakpoint; a breakpoint's value applies at that width and below. */
export type SlidesPerView = { default: number } & Partial<Record<CarouselBreakpoint, number>>;

/** Per the spec: 5 on desktop, 3 at 1024px, 2 at 768px, 1 at 550px and below. */
export const PRODUCT_SLIDES: SlidesPerView = { default: 5, 1024: 3, 768: 2, 550: 1 };
/** Per the spec: 3, then 2 under 1024px, 1 under 640px. */
export const TESTIMONIAL_SLIDES: SlidesPerView = { default: 3, 1024: 2, 640: 1 };

export interface CarouselOptions {
  slidesPerView?: SlidesPerView;
  /** Milliseconds per slide; 0 or false for no autoplay. Never autoplays with reduced motion. */
  autoplayMs?: number | false;
  /** Transition length in milliseconds. */
  speed?: number;
  loop?: boolean;
  dots?: boolean;
  arrows?: boolean;
  /** Space between slides in px. */
  gap?: number;
}

export const PRODUCT_CAROUSEL: Required<CarouselOptions> = {
  slidesPerView: PRODUCT_SLIDES,
  autoplayMs: 3000,
  speed: 500,
  loop: true,
  dots: false,
  arrows: true,
  gap: 16,
};

export const TESTIMONIAL_CAROUSEL: Required<CarouselOptions> = {
  slidesPerView: TESTIMONIAL_SLIDES,
  autoplayMs: 4000,
  speed: 500,
  loop: true,
  dots: true,
  arrows: false,
  gap: 24,
};

/** How many slides show at a width of `tier` px and below. */
export function slidesAt(slides: SlidesPerView, tier: number): number {
  let value = slides.default;
  for (const breakpoint of CAROUSEL_BREAKPOINTS) {
    const configured = slides[breakpoint];
    if (breakpoint >= tier && configured !== undefined) value = configured;
  }
  return value;
}

/** The same rules as swiper's min-width breakpoints. */
export function swiperBreakpoints(slides: SlidesPerView): {
  base: number;
  breakpoints: Record<number, { slidesPerView: number }>;
} {
  const ascending = [...CAROUSEL_BREAKPOINTS].sort((a, b) => a - b);
  const breakpoints: Record<number, { slidesPerView: number }> = {};
  ascending.forEach((tier, index) => {
    const next = ascending[index + 1];
    breakpoints[tier + 1] = { slidesPerView: next === undefined ? slides.default : slidesAt(slides, next) };
  });
  return { base: slidesAt(slides, ascending[0]), breakpoints };
}

/** The same rules as CSS variables, for the scroll-snap row the server renders. */
export function cssVariables(slides: SlidesPerView, gap: number): CSSProperties {
  const variables: Record<string, string> = {
    "--carousel-gap": `${gap}px`,
    "--carousel-xl": String(slides.default),
  };
  for (const tier of CAROUSEL_BREAKPOINTS) variables[`--carousel-${tier}`] = String(slidesAt(slides, tier));
  return variables as CSSProperties;
}
