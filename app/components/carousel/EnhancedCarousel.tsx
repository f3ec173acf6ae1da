import { useEffect, useRef, useState, type ReactNode } from "react";
import type { Swiper as SwiperInstance } from "swiper/types";
import { ArrowButtons, AutoplayAndDots, useCarouselControls } from "./controls";
import { prefersReducedMotion, type SwiperModules } from "./load-swiper";
import { swiperBreakpoints, type CarouselOptions } from "~/components/shared";

/** The row turned into a swiper carousel (autoplay, loop, dots, arrows) once swiper has loaded. */
export function EnhancedCarousel({
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
  const controls = useCarouselControls(swiperRef, autoplaying);
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

  const trackId = `${id}-track`;
  return (
    <div className="carousel__frame" onFocus={controls.onFocus} onBlur={controls.onBlur}>
      {/* Arrow keys move the slides of this focusable scroll region; the buttons offer the same. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        ref={containerRef}
        className="carousel__viewport swiper"
        role="region"
        aria-roledescription="carousel"
        aria-label={label}
        tabIndex={0}
        onKeyDown={controls.onKeyDown}
      >
        <ul className="carousel__track swiper-wrapper" id={trackId} aria-label={label}>
          {items.map((item, index) => (
            <li key={keys[index]} className="carousel__slide swiper-slide">
              {item}
            </li>
          ))}
        </ul>
      </div>
      {arrows ? <ArrowButtons trackId={trackId} prevRef={prevRef} nextRef={nextRef} /> : null}
      {dots || autoplaying ? (
        <AutoplayAndDots
          trackId={trackId}
          autoplaying={autoplaying}
          userPaused={controls.userPaused}
          onToggleAutoplay={controls.toggleAutoplay}
          dots={dots}
          paginationRef={paginationRef}
        />
      ) : null}
    </div>
  );
}
