import {
  isValidElement,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type CSSProperties,
  type FocusEvent,
  type KeyboardEvent,
  type ReactNode,
} from "react";
import type SwiperClass from "swiper";
import type { Swiper as SwiperInstance, SwiperOptions } from "swiper/types";
// Goes into the CSS bundle (`cssBundleHref` in root.tsx); `swiper/css` would crash remix-serve.
import "swiper/swiper-bundle.css";

/**
 * The store's one carousel. The server renders a horizontally scrollable row
 * with CSS scroll-snap: usable without script, and keyboard-scrollable (the
 * row is a focusable region). Once the page runs script, swiper is imported on
 * demand (never in the server render, and only by pages that show a carousel)
 * and turns the row into a swipeable carousel with autoplay, dots and arrows.
 */

/** Widths (px) at and below which a different number of slides may show. */
export const CAROUSEL_BREAKPOINTS = [1024, 768, 640, 550, 480] as const;
export type CarouselBreakpoint = (typeof CAROUSEL_BREAKPOINTS)[number];

/** `default` above every breakpoint; a breakpoint's value applies at that width and below. */
export type SlidesPerView = { default: number } & Partial<Record<CarouselBreakpoint, number>>;

/** Spec §9: 5 on desktop, 3 at 1024px, 2 at 768px, 1 at 550px and below. */
export const PRODUCT_SLIDES: SlidesPerView = { default: 5, 1024: 3, 768: 2, 550: 1 };
/** Spec §9, the checkout-area product carousel: 4 on desktop. */
export const CHECKOUT_PRODUCT_SLIDES: SlidesPerView = { default: 4, 1024: 3, 768: 2, 550: 1 };
/** Spec §9: 3, then 2 under 1024px, 1 under 640px. */
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

export interface CarouselProps extends CarouselOptions {
  /** Accessible name of the carousel, e.g. "Related products". */
  label: string;
  /** One node per slide; an element's own key is used when it has one. */
  items: ReactNode[];
  className?: string;
}

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

function cssVariables(slides: SlidesPerView, gap: number): CSSProperties {
  const variables: Record<string, string> = {
    "--carousel-gap": `${gap}px`,
    "--carousel-xl": String(slides.default),
  };
  for (const tier of CAROUSEL_BREAKPOINTS) variables[`--carousel-${tier}`] = String(slidesAt(slides, tier));
  return variables as CSSProperties;
}

function slideKey(item: ReactNode, index: number): string {
  return isValidElement(item) && item.key != null ? `k:${item.key}` : `i:${index}`;
}

type SwiperModules = {
  Swiper: typeof SwiperClass;
  modules: NonNullable<SwiperOptions["modules"]>;
};

let swiperLoader: Promise<SwiperModules> | undefined;

/** One download of swiper for the whole page, however many carousels it shows. */
function loadSwiper(): Promise<SwiperModules> {
  swiperLoader ??= Promise.all([import("swiper"), import("swiper/modules")]).then(([core, modules]) => ({
    Swiper: core.default,
    modules: [modules.Autoplay, modules.Pagination, modules.Navigation, modules.A11y],
  }));
  return swiperLoader;
}

function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true;
}

export function Carousel({
  label,
  items,
  className,
  slidesPerView = PRODUCT_CAROUSEL.slidesPerView,
  autoplayMs = PRODUCT_CAROUSEL.autoplayMs,
  speed = PRODUCT_CAROUSEL.speed,
  loop = PRODUCT_CAROUSEL.loop,
  dots = PRODUCT_CAROUSEL.dots,
  arrows = PRODUCT_CAROUSEL.arrows,
  gap = PRODUCT_CAROUSEL.gap,
}: CarouselProps) {
  const id = useId();
  const keys = items.map(slideKey);
  // A new set of slides gets a fresh swiper: swiper moves slides around in loop mode,
  // so React must never patch children swiper has rearranged.
  const signature = keys.join("|");
  const enhanceable = items.length > 1;
  const [swiperModules, setSwiperModules] = useState<SwiperModules | null>(null);

  useEffect(() => {
    if (!enhanceable) return;
    let cancelled = false;
    loadSwiper()
      .then((loaded) => {
        if (!cancelled) setSwiperModules(loaded);
      })
      .catch((error: unknown) => {
        // Offline or a failed chunk: the scroll-snap row still works.
        console.warn("Carousel enhancement unavailable", error);
      });
    return () => {
      cancelled = true;
    };
  }, [enhanceable]);

  const classes = ["carousel", swiperModules ? "is-enhanced" : "", className ?? ""].filter(Boolean).join(" ");
  const style = cssVariables(slidesPerView, gap);

  return (
    <div className={classes} style={style}>
      {swiperModules ? (
        <EnhancedCarousel
          key={signature}
          id={id}
          label={label}
          items={items}
          keys={keys}
          loaded={swiperModules}
          options={{ slidesPerView, autoplayMs, speed, loop, dots, arrows, gap }}
        />
      ) : (
        <div className="carousel__viewport" role="region" aria-roledescription="carousel" aria-label={label} tabIndex={0}>
          <ul className="carousel__track" aria-label={label}>
            {items.map((item, index) => (
              <li key={keys[index]} className="carousel__slide" aria-label={`${index + 1} of ${items.length}`}>
                {item}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function EnhancedCarousel({
  id,
  label,
  items,
  keys,
  loaded,
  options,
}: {
  id: string;
  label: string;
  items: ReactNode[];
  keys: string[];
  loaded: SwiperModules;
  options: Required<CarouselOptions>;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const paginationRef = useRef<HTMLDivElement>(null);
  const prevRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const swiperRef = useRef<SwiperInstance | null>(null);
  const [autoplaying, setAutoplaying] = useState(false);
  const [userPaused, setUserPaused] = useState(false);
  const { slidesPerView, autoplayMs, speed, loop, dots, arrows, gap } = options;

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const reduced = prefersReducedMotion();
    const { base, breakpoints } = swiperBreakpoints(slidesPerView);
    const mostVisible = Math.max(slidesPerView.default, ...Object.values(breakpoints).map((b) => b.slidesPerView), base);
    const canLoop = loop && items.length > mostVisible + 1;
    const autoplay = !reduced && typeof autoplayMs === "number" && autoplayMs > 0 && items.length > 1;

    const swiper = new loaded.Swiper(container, {
      modules: loaded.modules,
      slidesPerView: base,
      breakpoints,
      spaceBetween: gap,
      speed: reduced ? 0 : speed,
      loop: canLoop,
      rewind: !canLoop && autoplay,
      watchOverflow: true,
      autoplay: autoplay ? { delay: autoplayMs, disableOnInteraction: false, pauseOnMouseEnter: true } : false,
      pagination: dots && paginationRef.current ? { el: paginationRef.current, clickable: true, bulletElement: "button" } : false,
      navigation:
        arrows && prevRef.current && nextRef.current ? { prevEl: prevRef.current, nextEl: nextRef.current, addIcons: false } : false,
      a11y: {
        enabled: true,
        slideRole: "listitem",
        slideLabelMessage: "{{index}} of {{slidesLength}}",
        paginationBulletMessage: "Go to slide {{index}}",
        prevSlideMessage: "Previous slide",
        nextSlideMessage: "Next slide",
      },
    });
    swiperRef.current = swiper;
    setAutoplaying(autoplay);
    return () => {
      swiperRef.current = null;
      swiper.destroy(true, true);
    };
    // The component is keyed by its slides; options are fixed for its lifetime.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const toggleAutoplay = useCallback(() => {
    const swiper = swiperRef.current;
    if (!swiper) return;
    if (userPaused) {
      swiper.autoplay.start();
      setUserPaused(false);
    } else {
      swiper.autoplay.stop();
      setUserPaused(true);
    }
  }, [userPaused]);

  // Keyboard and screen-reader users get a still carousel while they are inside it.
  const onFocus = () => {
    if (autoplaying && !userPaused) swiperRef.current?.autoplay.pause();
  };
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
    if (autoplaying && !userPaused) swiperRef.current?.autoplay.resume();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === "ArrowRight") {
      event.preventDefault();
      swiperRef.current?.slideNext();
    } else if (event.key === "ArrowLeft") {
      event.preventDefault();
      swiperRef.current?.slidePrev();
    }
  };

  const trackId = `${id}-track`;
  return (
    <div className="carousel__frame" onFocus={onFocus} onBlur={onBlur}>
      {/* Arrow keys move the slides of this focusable scroll region; the buttons offer the same. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        ref={containerRef}
        className="carousel__viewport swiper"
        role="region"
        aria-roledescription="carousel"
        aria-label={label}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <ul className="carousel__track swiper-wrapper" id={trackId} aria-label={label}>
          {items.map((item, index) => (
            <li key={keys[index]} className="carousel__slide swiper-slide">
              {item}
            </li>
          ))}
        </ul>
      </div>
      {arrows ? (
        <>
          <button ref={prevRef} type="button" className="carousel__arrow carousel__arrow--prev" aria-controls={trackId}>
            <span aria-hidden="true">‹</span>
            <span className="visually-hidden">Previous slide</span>
          </button>
          <button ref={nextRef} type="button" className="carousel__arrow carousel__arrow--next" aria-controls={trackId}>
            <span aria-hidden="true">›</span>
            <span className="visually-hidden">Next slide</span>
          </button>
        </>
      ) : null}
      {dots || autoplaying ? (
        <div className="carousel__controls">
          {autoplaying ? (
            <button type="button" className="carousel__pause" onClick={toggleAutoplay} aria-controls={trackId}>
              {userPaused ? "Play" : "Pause"}
              <span className="visually-hidden"> automatic slide show</span>
            </button>
          ) : null}
          {dots ? <div ref={paginationRef} className="carousel__dots" /> : null}
        </div>
      ) : null}
    </div>
  );
}
