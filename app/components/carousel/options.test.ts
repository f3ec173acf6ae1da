import { describe, expect, it } from "vitest";
import { PRODUCT_SLIDES, slidesAt, swiperBreakpoints, TESTIMONIAL_SLIDES } from "./options";

describe("carousel breakpoints", () => {
  it("product carousel: 5, then 3 at 1024px, 2 at 768px, 1 at 550px and below", () => {
    expect(slidesAt(PRODUCT_SLIDES, 1024)).toBe(3);
    expect(slidesAt(PRODUCT_SLIDES, 768)).toBe(2);
    expect(slidesAt(PRODUCT_SLIDES, 640)).toBe(2);
    expect(slidesAt(PRODUCT_SLIDES, 550)).toBe(1);
    expect(slidesAt(PRODUCT_SLIDES, 480)).toBe(1);
    expect(swiperBreakpoints(PRODUCT_SLIDES)).toEqual({
      base: 1,
      breakpoints: {
        481: { slidesPerView: 1 },
        551: { slidesPerView: 2 },
        641: { slidesPerView: 2 },
        769: { slidesPerView: 3 },
        1025: { slidesPerView: 5 },
      },
    });
  });

  it("testimonial carousel: 3, then 2 under 1024px, 1 under 640px", () => {
    expect(slidesAt(TESTIMONIAL_SLIDES, 1024)).toBe(2);
    expect(slidesAt(TESTIMONIAL_SLIDES, 768)).toBe(2);
    expect(slidesAt(TESTIMONIAL_SLIDES, 640)).toBe(1);
    expect(swiperBreakpoints(TESTIMONIAL_SLIDES).breakpoints[1025]).toEqual({ slidesPerView: 3 });
    expect(swiperBreakpoints(TESTIMONIAL_SLIDES).breakpoints[641]).toEqual({ slidesPerView: 2 });
    expect(swiperBreakpoints(TESTIMONIAL_SLIDES).base).toBe(1);
  });
});
