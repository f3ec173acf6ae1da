import { useCallback, useState, type FocusEvent, type KeyboardEvent, type RefObject } from "react";
import type { Swiper as SwiperInstance } from "swiper/types";

/**
 * What a person uses to drive a swiper carousel: the arrow keys on the focused
 * row, the Previous/Next buttons, the dots, and a Pause/Play button for the
 * automatic slide show. Keyboard and screen-reader users get a still carousel
 * while they are inside it.
 */
export function useCarouselControls(swiperRef: RefObject<SwiperInstance | null>, autoplaying: boolean) {
  const [userPaused, setUserPaused] = useState(false);

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
  }, [swiperRef, userPaused]);

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

  return { userPaused, toggleAutoplay, onFocus, onBlur, onKeyDown };
}

export function ArrowButtons({
  trackId,
  prevRef,
  nextRef,
}: {
  trackId: string;
  prevRef: RefObject<HTMLButtonElement>;
  nextRef: RefObject<HTMLButtonElement>;
}) {
  return (
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
  );
}

/** The Pause/Play button (while autoplaying) and the place swiper puts its dots. */
export function AutoplayAndDots({
  trackId,
  autoplaying,
  userPaused,
  onToggleAutoplay,
  dots,
  paginationRef,
}: {
  trackId: string;
  autoplaying: boolean;
  userPaused: boolean;
  onToggleAutoplay: () => void;
  dots: boolean;
  paginationRef: RefObject<HTMLDivElement>;
}) {
  return (
    <div className="carousel__controls">
      {autoplaying ? (
        <button type="button" className="carousel__pause" onClick={onToggleAutoplay} aria-controls={trackId}>
          {userPaused ? "Play" : "Pause"}
          <span className="visually-hidden"> automatic slide show</span>
        </button>
      ) : null}
      {dots ? <div ref={paginationRef} className="carousel__dots" /> : null}
    </div>
  );
}
