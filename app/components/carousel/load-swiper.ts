import type SwiperClass from "swiper";
import type { SwiperOptions } from "swiper/types";

/** Swiper is downloaded on demand, in the browser only, by pages that show a carousel. */

export type SwiperModules = {
  Swiper: typeof SwiperClass;
  modules: NonNullable<SwiperOptions["modules"]>;
};

let swiperLoader: Promise<SwiperModules> | undefined;

/** One download of swiper for the whole page, however many carousels it shows. */
export function loadSwiper(): Promise<SwiperModules> {
  swiperLoader ??= Promise.all([import("swiper"), import("swiper/modules")]).then(([core, modules]) => ({
    Swiper: core.default,
    modules: [modules.Autoplay, modules.Pagination, modules.Navigation, modules.A11y],
  }));
  return swiperLoader;
}

export function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true;
}
