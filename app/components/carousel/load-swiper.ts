import type SwiperClass from "swiper";
import type { SwiperOptions } from "swiper/types";
// A URL (not part of the render-blocking CSS): the style sheet is fetched together with swiper's script.
import swiperStyles from "./swiper-styles.css";
import { hasInteracted, INTERACTIONS } from "~/components/shared";

/**
 * Swiper is downloaded on demand, in the browser only, by pages that show a
 * carousel, and only when a carousel needs it (`whenEnhancementWanted`): the
 * server-rendered scroll-snap row works until then.
 */

export type SwiperModules = {
  Swiper: typeof SwiperClass;
  modules: NonNullable<SwiperOptions["modules"]>;
};

let swiperLoader: Promise<SwiperModules> | undefined;

/** One download of swiper for the whole page, however many carousels it shows. */
export function loadSwiper(): Promise<SwiperModules> {
  swiperLoader ??= Promise.all([import("swiper"), import("swiper/modules"), loadStyleSheet(swiperStyles)]).then(([core, modules]) => ({
    Swiper: core.default,
    modules: [modules.Autoplay, modules.Pagination, modules.Navigation, modules.A11y],
  }));
  return swiperLoader;
}

function loadStyleSheet(href: string): Promise<void> {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    // A failed style sheet leaves an unstyled swiper, not a broken page.
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}

/**
 * Calls `wanted` once the carousel should turn into a swiper: a carousel below
 * the fold when it comes within 200px of the viewport; one already on screen
 * when the page loads (nothing to gain from loading swiper during the first
 * paint) at the shopper's first interaction with the page, even one made before
 * this script loaded (./interaction.ts). A hidden carousel
 * (e.g. the mobile gallery on a desktop screen) never asks. Returns a cleanup.
 */
export function whenEnhancementWanted(element: Element | null, wanted: () => void): () => void {
  if (!element || typeof IntersectionObserver === "undefined") {
    wanted();
    return () => {};
  }
  const cleanups: Array<() => void> = [];
  let done = false;
  const fire = () => {
    if (done) return;
    done = true;
    for (const cleanup of cleanups) cleanup();
    wanted();
  };
  const box = element.getBoundingClientRect();
  const onScreen = box.height > 0 && box.top < window.innerHeight && box.bottom > 0;
  if (onScreen && hasInteracted()) {
    fire();
  } else if (onScreen) {
    for (const type of INTERACTIONS) {
      window.addEventListener(type, fire, { passive: true, capture: true });
      cleanups.push(() => window.removeEventListener(type, fire, { capture: true }));
    }
  } else {
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && fire(), {
      rootMargin: "200px 0px",
    });
    observer.observe(element);
    cleanups.push(() => observer.disconnect());
  }
  return () => {
    done = true;
    for (const cleanup of cleanups) cleanup();
  };
}

export function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true;
}
