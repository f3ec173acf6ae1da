import type { CategoryFamily } from "../family";
import { pick } from "../hash";
import type { DescriptionInput, Facts } from "./facts";
import { article, lower, shortName } from "./wording";

/** The first paragraph (what the product is) and the last (how it fits in). */

export function intro(product: DescriptionInput, family: CategoryFamily, f: Facts, seed: string): string {
  const noun = f.noun;
  const inCollection = f.collection ? ` from the ${f.collection} line` : "";
  const classNote = f.productClass ? ` It sits in the ${lower(f.productClass)} class of the range.` : "";
  const config = f.configuration ? ` Configuration: ${lower(f.configuration)}.` : "";
  if (family === "seasoning") {
    return pick(
      [
        `${f.name} is our own house blend, made for people who like their barbecue with a bit of character. It is the seasoning we reach for first, from weeknight chicken to a long Saturday brisket.`,
        `${f.name} is the store's own rub: a balanced, all-purpose blend that builds a good crust on the grill and still tastes right in a skillet.`,
      ],
      seed,
      "intro"
    );
  }
  const variants = [
    `The ${f.name} is ${article(noun)} ${noun} by ${f.brand}${inCollection}.${classNote}${config}`,
    `${f.brand} builds the ${shortName(f.name)} as ${article(
      noun
    )} ${noun}${inCollection}, made for regular use outdoors.${classNote}${config}`,
    `Meet the ${f.name}: ${article(noun)} ${noun} by ${f.brand}${inCollection}.${classNote}${config}`,
  ];
  return pick(variants, seed, "intro");
}

export function closing(family: CategoryFamily, f: Facts, seed: string): string {
  const byFamily: Record<CategoryFamily, string[]> = {
    grill: [
      `Pair it with matching ${f.brand} storage, side burners and a vent hood to build a complete outdoor kitchen.`,
      `It is a solid centrepiece for anything from a quick weeknight dinner to a full backyard cookout.`,
      `Check the fuel type and any cut-out dimensions before ordering, and our team can help you plan the rest of the space.`,
    ],
    griddle: [
      "Flat-top cooking opens up breakfasts, smash burgers, stir-fries and anything that would fall through a grate.",
      "It is ideal for feeding a crowd at once, from pancakes in the morning to fajitas at night.",
    ],
    kamado: [
      "Thick ceramic walls hold heat for low-and-slow smoking and still reach searing temperatures when you need them.",
      "From overnight pork shoulder to a quick steak sear, a kamado covers a wide range of cooking with very little fuel.",
    ],
    "pizza-oven": [
      "High, even heat gives crisp crusts in minutes, and the oven is just as good for roasting vegetables, bread and meat.",
      "Bring pizza night outdoors: preheat, launch, turn once, and serve.",
    ],
    heater: [
      "Follow the manufacturer's clearance guidance when choosing a mounting position.",
      "It is a practical way to keep an outdoor room usable in spring, autumn and on cool summer nights.",
    ],
    "fire-pit": [
      "Add seating around it and it quickly becomes the favorite spot in the garden.",
      "Pair it with a matching cover to keep it clean between uses.",
    ],
    refrigerator: [
      "Check the cut-out and ventilation requirements before planning your island.",
      "It pairs well with an outdoor sink, ice bin and storage drawers for a complete bar area.",
    ],
    cabinet: [
      `Combine it with other ${f.brand} doors and drawers for a consistent look across your island.`,
      "Measure your island openings carefully; cut-out dimensions matter more than overall size.",
    ],
    furniture: [
      "Pair it with matching pieces from the same collection for a coordinated patio.",
      "Easy-care materials mean more time outside and less time on upkeep.",
    ],
    cover: [
      "Let the equipment cool completely before covering it, and remove the cover after rain so moisture can dry.",
      "A good cover is the simplest way to protect a significant investment.",
    ],
    accessory: [
      "Check the compatibility notes in the specifications to confirm it fits your model.",
      "Small additions like this keep your outdoor kitchen running smoothly season after season.",
    ],
    seasoning: [
      "Order it on its own or add a jar to your grill order; it also makes an easy gift for the barbecue fan in your life.",
      "Keep a jar by the grill: once you have tried it, it tends to become the default.",
    ],
  };
  return pick(byFamily[family], seed, "closing");
}
