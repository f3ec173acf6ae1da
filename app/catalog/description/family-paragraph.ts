import { specValue } from "../product";
import type { CategoryFamily } from "../family";
import { pick } from "../hash";
import type { DescriptionInput, Facts } from "./facts";
import { listJoin, lower, volts } from "./wording";

/** The second paragraph: what the product does, in the terms of its family (cooking, heating, seating...). */

function burnerPhrase(value: string): string {
  const count = /^(\d+)\b/.exec(value)?.[1];
  if (count) return count === "1" ? "uses a single main burner" : `uses ${count} main burners`;
  if (/\bsingle\b/i.test(value)) return "uses a single burner";
  if (/\b(?:double|dual)\b/i.test(value)) return "uses two burners";
  return `uses ${lower(value)} burners`.replace(/burners burners?$/i, "burners");
}

function cookingParagraph(f: Facts, seed: string, what: string): string {
  const parts: string[] = [];
  if (f.fuel) parts.push(`runs on ${lower(f.fuel)}`);
  if (f.burners) parts.push(burnerPhrase(f.burners));
  if (f.btu) parts.push(`is rated at ${f.btu} BTUs`);
  const sentences: string[] = [];
  if (parts.length > 0) sentences.push(`This ${what} ${listJoin(parts)}.`);
  const areas: string[] = [];
  if (f.mainArea) areas.push(`${f.mainArea} of primary cooking space`);
  if (f.secondaryArea) areas.push(`${f.secondaryArea} of secondary space`);
  if (!f.mainArea && f.totalArea) areas.push(`${f.totalArea} of total cooking area`);
  if (areas.length > 0) {
    sentences.push(
      pick(
        [
          `You get ${listJoin(areas)}.`,
          `It offers ${listJoin(areas)}.`,
          `The cooking surface provides ${listJoin(areas)}.`,
        ],
        seed,
        "area"
      )
    );
  }
  if (f.grate) {
    const grid = f.gridSize ? ` measuring ${f.gridSize}` : "";
    sentences.push(`The cooking grates are ${lower(f.grate)}${grid}.`);
  }
  if (f.ignition) sentences.push(`Ignition is ${lower(f.ignition)}.`);
  if (f.features.length > 0) sentences.push(`Notable features include ${listJoin(f.features.slice(0, 5))}.`);
  return sentences.join(" ");
}

export function familyParagraph(family: CategoryFamily, f: Facts, seed: string, product: DescriptionInput): string {
  switch (family) {
    case "grill":
    case "griddle":
    case "kamado":
    case "pizza-oven": {
      const what =
        family === "griddle" ? "griddle" : family === "kamado" ? "kamado" : family === "pizza-oven" ? "oven" : f.noun;
      const text = cookingParagraph(f, seed, what);
      if (text) return text;
      return pick(
        [
          `It is made for steady, even cooking, with controls that are easy to read and reach.`,
          `It is built for cooks who want dependable heat and simple control, meal after meal.`,
        ],
        seed,
        "cook-fallback"
      );
    }
    case "heater": {
      const parts: string[] = [];
      if (f.fuel) parts.push(`It runs on ${lower(f.fuel)}`);
      if (f.btu) parts.push(`${parts.length ? "and delivers" : "It delivers"} ${f.btu} BTUs`);
      let text = parts.length ? `${parts.join(" ")}.` : "";
      if (f.heatArea) text += ` It warms an area of about ${f.heatArea}.`;
      if (f.volts) text += ` It is designed for a ${volts(f.volts)} supply.`;
      if (f.configuration) text += ` Mounting: ${lower(f.configuration)}.`;
      return (
        text.trim() ||
        pick(
          [
            "It is made to keep a patio, porch or outdoor dining area comfortable when the evening turns cool.",
            "It extends the outdoor season by putting steady, directed warmth where people sit.",
          ],
          seed,
          "heat-fallback"
        )
      );
    }
    case "fire-pit": {
      const parts: string[] = [];
      if (f.fuel) parts.push(`burns ${lower(f.fuel)}`);
      if (f.btu) parts.push(`puts out up to ${f.btu} BTUs`);
      if (f.ignition) parts.push(`uses ${lower(f.ignition)} ignition`);
      const base = parts.length ? `This fire feature ${listJoin(parts)}.` : "";
      return `${base} ${pick(
        [
          "It gives a patio a natural gathering point, with a real flame to sit around after dark.",
          "It brings warmth and a focal point to a patio, deck or garden seating area.",
        ],
        seed,
        "fire"
      )}`.trim();
    }
    case "refrigerator": {
      const parts: string[] = [];
      if (f.features.includes("an outdoor rating")) parts.push("It is rated for outdoor installation.");
      if (f.volts) parts.push(`It runs on a ${volts(f.volts)} supply.`);
      return `${pick(
        [
          "It keeps drinks and ingredients cold right where you cook, saving trips back to the kitchen.",
          "It puts cold drinks and prepared food within reach of the grill.",
        ],
        seed,
        "cold"
      )} ${parts.join(" ")}`.trim();
    }
    case "cabinet": {
      return `${pick(
        [
          "It adds organized, weather-resistant storage to an outdoor kitchen, keeping tools, propane and supplies out of sight.",
          "It gives an outdoor kitchen a clean, finished front and practical storage for tools and supplies.",
        ],
        seed,
        "storage"
      )}`;
    }
    case "furniture": {
      const parts: string[] = [];
      if (f.seating)
        parts.push(
          `seats ${lower(f.seating).replace(/^(\d+)\s*persons?$/i, (_m, n: string) =>
            n === "1" ? "1 person" : `${n} people`
          )}`
        );
      if (f.weightCapacity) parts.push(`supports up to ${f.weightCapacity}`);
      const base = parts.length ? ` It ${listJoin(parts)}.` : "";
      return `${pick(
        [
          "It is made to stay outside, so your patio or pool deck is ready whenever you are.",
          "It is designed for outdoor living, with materials chosen to handle sun and weather.",
        ],
        seed,
        "furniture"
      )}${base}`;
    }
    case "cover": {
      const fit = f.designedFor ? ` It is made to fit ${f.designedFor}.` : "";
      const type = f.coverType ? ` Cover type: ${lower(f.coverType)}.` : "";
      return `${pick(
        [
          "A fitted cover keeps rain, dust, pollen and leaves off your equipment between uses and helps the finish last.",
          "It shields your equipment from weather and debris between cookouts, so it is clean and ready next time.",
        ],
        seed,
        "cover"
      )}${fit}${type}`;
    }
    case "seasoning": {
      const ingredients = specValue(product, "Ingredients");
      const weight = specValue(product, "Net Weight");
      const parts: string[] = [];
      if (ingredients) parts.push(`The blend is made from ${lower(ingredients)}.`);
      if (weight) parts.push(`Each jar holds ${weight}.`);
      parts.push("Shake it on generously before cooking, or mix it with oil for a quick marinade.");
      return parts.join(" ");
    }
    case "accessory":
    default: {
      const fit = f.designedFor ? ` It is intended for ${f.designedFor}.` : "";
      return `${pick(
        [
          "It is the kind of part or accessory that makes everyday grilling easier and keeps your setup working as it should.",
          "It completes or maintains your outdoor cooking setup, and is made to the same standard as the equipment it serves.",
        ],
        seed,
        "accessory"
      )}${fit}`;
    }
  }
}
