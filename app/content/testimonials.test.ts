import { describe, expect, it } from "vitest";
import { ratingLabel, starFills, TESTIMONIAL_BLOCK, TESTIMONIALS } from "./testimonials";

describe("testimonials", () => {
  it("has 20 reviews with half-step stars, a city and a US state", () => {
    expect(TESTIMONIALS).toHaveLength(20);
    for (const review of TESTIMONIALS) {
      expect(review.stars * 2).toBe(Math.round(review.stars * 2));
      expect(review.stars).toBeGreaterThanOrEqual(0.5);
      expect(review.stars).toBeLessThanOrEqual(5);
      expect(review.state).toMatch(/^[A-Z]{2}$/);
      expect(review.name && review.text && review.city).toBeTruthy();
    }
    expect(new Set(TESTIMONIALS.map((review) => review.name)).size).toBe(20);
  });

  it("shows a block of 8 of them", () => {
    expect(TESTIMONIAL_BLOCK).toHaveLength(8);
    for (const review of TESTIMONIAL_BLOCK) expect(TESTIMONIALS).toContain(review);
  });

  it("draws stars in half steps and says the rating in words", () => {
    expect(starFills(4.5)).toEqual(["full", "full", "full", "full", "half"]);
    expect(starFills(3)).toEqual(["full", "full", "full", "empty", "empty"]);
    expect(starFills(0.5)).toEqual(["half", "empty", "empty", "empty", "empty"]);
    expect(starFills(7)).toEqual(["full", "full", "full", "full", "full"]);
    expect(ratingLabel(4.5)).toBe("Rated 4.5 out of 5");
  });
});
