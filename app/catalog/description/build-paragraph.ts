import { pick } from "../hash";
import type { Facts } from "./facts";
import { listJoin, lower } from "./wording";

/** The third paragraph: materials, dimensions, cut-out and origin. */

export function buildParagraph(f: Facts, seed: string): string {
  const sentences: string[] = [];
  if (f.material) {
    const grade = f.grade ? ` (grade: ${f.grade})` : "";
    sentences.push(
      pick(
        [`Construction is ${lower(f.material)}${grade}.`, `It is built from ${lower(f.material)}${grade}.`],
        seed,
        "material"
      )
    );
  }
  const dims: string[] = [];
  if (f.width) dims.push(`${f.width} wide`);
  if (f.height) dims.push(`${f.height} high`);
  if (f.depth) dims.push(`${f.depth} deep`);
  if (dims.length > 0)
    sentences.push(`Overall it measures ${listJoin(dims)}${f.weight ? ` and weighs ${f.weight}` : ""}.`);
  else if (f.weight) sentences.push(`It weighs ${f.weight}.`);
  if (f.cutout && !sentences.some((s) => s.includes("cut-out"))) sentences.push(`The required cut-out is ${f.cutout}.`);
  if (f.madeInUsa) sentences.push("It is made in the USA.");
  return sentences.join(" ");
}
