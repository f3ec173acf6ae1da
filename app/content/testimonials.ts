/**
 * The store's 20 fixed customer reviews (spec: a carousel of 20 on one page,
 * a block of 8 in the footer and on the landing page). Stars go in half steps.
 */
export interface Testimonial {
  name: string;
  text: string;
  /** 0.5 to 5 in half steps. */
  stars: number;
  city: string;
  /** Two-letter US state code. */
  state: string;
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    name: "Marcus T.",
    text: "The built-in grill arrived on a pallet right on the scheduled day. Our outdoor kitchen finally feels finished, and the sear marks are perfect.",
    stars: 5,
    city: "Austin",
    state: "TX",
  },
  {
    name: "Jennifer L.",
    text: "LOVE RUB is now on everything we cook: ribs, chicken, even roasted corn. Sweet, smoky and just enough heat.",
    stars: 5,
    city: "Nashville",
    state: "TN",
  },
  {
    name: "Robert K.",
    text: "The patio heater keeps our deck comfortable well into November. Assembly took about an hour with two of us.",
    stars: 4.5,
    city: "Denver",
    state: "CO",
  },
  {
    name: "Alicia M.",
    text: "I called with questions about gas conversion and the expert on the phone knew exactly which kit I needed. Great service.",
    stars: 5,
    city: "Phoenix",
    state: "AZ",
  },
  {
    name: "David R.",
    text: "The kamado holds temperature for hours. My first overnight brisket came out better than at our local barbecue joint.",
    stars: 4.5,
    city: "Kansas City",
    state: "MO",
  },
  {
    name: "Samantha P.",
    text: "Free shipping and a fair price on our griddle. The tracking email let us plan to be home when it was delivered.",
    stars: 4,
    city: "Charlotte",
    state: "NC",
  },
  {
    name: "Greg H.",
    text: "Bought three jars of LOVE RUB after trying a friend's pulled pork. Worth every penny and it ships fast.",
    stars: 5,
    city: "Columbus",
    state: "OH",
  },
  {
    name: "Priya S.",
    text: "The fire pit is the centerpiece of our backyard now. Solid build quality and the flame looks fantastic at night.",
    stars: 4.5,
    city: "San Diego",
    state: "CA",
  },
  {
    name: "Tom W.",
    text: "Our order needed a change of burner configuration and the team sorted it out the same day before it shipped.",
    stars: 4.5,
    city: "Boise",
    state: "ID",
  },
  {
    name: "Karen B.",
    text: "The infrared heaters mounted under our pergola work beautifully. We use the patio from March to December now.",
    stars: 5,
    city: "Minneapolis",
    state: "MN",
  },
  {
    name: "Luis G.",
    text: "Pizza oven heats up in about twenty minutes and the crust is restaurant quality. The family asks for pizza night every week.",
    stars: 4.5,
    city: "San Antonio",
    state: "TX",
  },
  {
    name: "Emily C.",
    text: "The delivery driver called ahead and the pallet was in perfect shape. Unloading took two of us, just as the site advised.",
    stars: 4,
    city: "Raleigh",
    state: "NC",
  },
  {
    name: "Brian O.",
    text: "Best steak seasoning I have used. LOVE RUB gives a crust that my neighbors keep asking about.",
    stars: 5,
    city: "Omaha",
    state: "NE",
  },
  {
    name: "Natalie F.",
    text: "We compared prices everywhere and this store was the best deal on our refrigerator and storage drawers. No surprises.",
    stars: 4.5,
    city: "Tampa",
    state: "FL",
  },
  {
    name: "Chris D.",
    text: "The pellet grill is so easy to use that my teenage son now does the weekend cooks. Smoke flavor is excellent.",
    stars: 4.5,
    city: "Louisville",
    state: "KY",
  },
  {
    name: "Angela V.",
    text: "Customer service helped me pick the right vent hood for our outdoor kitchen. Clear answers and no pressure.",
    stars: 5,
    city: "Scottsdale",
    state: "AZ",
  },
  {
    name: "Mike J.",
    text: "Shipping took a few days longer than I hoped because of a storm, but they kept me updated the whole way.",
    stars: 3.5,
    city: "Buffalo",
    state: "NY",
  },
  {
    name: "Rachel N.",
    text: "The griddle is perfect for big family breakfasts. Pancakes, bacon and eggs all at once on the flat top.",
    stars: 4.5,
    city: "Salt Lake City",
    state: "UT",
  },
  {
    name: "Steve A.",
    text: "Our gas grill lights every single time and heats evenly edge to edge. It was packed very well for the trip.",
    stars: 5,
    city: "Portland",
    state: "OR",
  },
  {
    name: "Denise E.",
    text: "Gave LOVE RUB as holiday gifts and everyone came back for more. It is the only rub in our pantry now.",
    stars: 5,
    city: "Atlanta",
    state: "GA",
  },
];

/** The 8 shown as a static block in the footer and on the landing page. */
export const TESTIMONIAL_BLOCK: readonly Testimonial[] = [0, 1, 2, 3, 6, 9, 12, 15].map((index) => TESTIMONIALS[index]);

/** "Rated 4.5 out of 5" */
export function ratingLabel(stars: number): string {
  return `Rated ${stars} out of 5`;
}

export type StarFill = "full" | "half" | "empty";

/** Five star fills for a rating in half steps (rounded to the nearest half, clamped to 0..5). */
export function starFills(stars: number): StarFill[] {
  const halves = Math.round(Math.min(5, Math.max(0, stars)) * 2);
  return Array.from({ length: 5 }, (_, index) => {
    const remaining = halves - index * 2;
    return remaining >= 2 ? "full" : remaining === 1 ? "half" : "empty";
  });
}
