import { isValidElement, useEffect, useId, useRef, useState, type ReactNode } from "react";
import { EnhancedCarousel } from "./EnhancedCarousel";
import { loadSwiper, whenEnhancementWanted, type SwiperModules } from "./load-swiper";
import { cssVariables, PRODUCT_CAROUSEL, type CarouselOptions } from "~/components/shared";
import { ScrollRow } from "./ScrollRow";

/**
 * The store's one carousel. The server renders a horizontally scrollable row
 * with CSS scroll-snap (./ScrollRow.tsx). Once the page runs script and the
 * carousel is wanted (scrolled near, or the first interaction with a page that
 * shows it on screen: ./load-swiper.ts), swiper and its style sheet are
 * imported on demand (never in the server render, and only by pages that show
 * a carousel) and turn the row into a swipeable carousel with autoplay, dots
 * and arrows (./EnhancedCarousel.tsx).
 */

interface CarouselProps extends CarouselOptions {
  /** Accessible name of the carousel, e.g. "Related products". */
  label: string;
  /** One node per slide; an element's own key is used when it has one. */
  items: ReactNode[];
  className?: string;
}

function slideKey(item: ReactNode, index: number): string {
  return isValidElement(item) && item.key != null ? `k:${item.key}` : `i:${index}`;
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
  const rootRef = useRef<HTMLDivElement>(null);
  const [wanted, setWanted] = useState(false);

  useEffect(() => {
    if (!enhanceable) return;
    return whenEnhancementWanted(rootRef.current, () => setWanted(true));
  }, [enhanceable]);

  useEffect(() => {
    if (!enhanceable || !wanted) return;
    let cancelled = false;
    loadSwiper()
      .then((loaded) => {
        if (!cancelled) setSwiperModules(loaded);
      })
      .catch(() => {
        // Offline or a failed chunk: the scroll-snap row still works, unenhanced.
      });
    return () => {
      cancelled = true;
    };
  }, [enhanceable, wanted]);

  const classes = ["carousel", swiperModules ? "is-enhanced" : "", className ?? ""].filter(Boolean).join(" ");
  const style = cssVariables(slidesPerView, gap);

  return (
    <div className={classes} style={style} ref={rootRef}>
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
        <ScrollRow label={label} items={items} keys={keys} />
      )}
    </div>
  );
}
