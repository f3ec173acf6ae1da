import type { CatalogProduct } from "../product";
import { catalogProductSchema } from "../product";
import { composeDescription } from "../description";
import { imagePaths } from "../image-url";
import { dropCandidate, type Candidate, type Drop } from "./candidate";

/**
 * Step 3 of the import (see ./pipeline.ts): records still without a price are
 * dropped ("no price"); the others become catalog products (pictures and
 * description included) and are validated with catalogProductSchema
 * ("invalid record" if not).
 */

export type ValidProduct = { candidate: Candidate; product: CatalogProduct };

export function validate(candidates: readonly Candidate[]): { valid: ValidProduct[]; drops: Drop[] } {
  const valid: ValidProduct[] = [];
  const drops: Drop[] = [];
  for (const candidate of candidates) {
    const { price, category } = candidate;
    if (price === null) {
      drops.push(dropCandidate(candidate, "no price"));
      continue;
    }
    const product = toProduct({ ...candidate, price, category: category ?? ["Home"] });
    const parsed = catalogProductSchema.safeParse(product);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? issue.path.join(".") : "";
      drops.push(dropCandidate(candidate, "invalid record", `invalid record (${where}: ${issue?.message ?? "schema"})`));
      continue;
    }
    valid.push({ candidate, product });
  }
  return { valid, drops };
}

function toProduct(candidate: Candidate & { price: number; category: string[] }): CatalogProduct {
  const images = imagePaths(candidate.brand, candidate.id, candidate.imageCount);
  const withoutDescription = {
    Id: candidate.id,
    Model: candidate.model,
    brand: candidate.brand,
    Title: candidate.title,
    Price: candidate.price,
    Image: images[0] ?? "",
    Other_image: images,
    Category: candidate.category,
    Specifications: candidate.specifications,
    image_count: candidate.imageCount,
  };
  return {
    Id: withoutDescription.Id,
    Model: withoutDescription.Model,
    brand: withoutDescription.brand,
    Title: withoutDescription.Title,
    Price: withoutDescription.Price,
    Image: withoutDescription.Image,
    Other_image: withoutDescription.Other_image,
    Category: withoutDescription.Category,
    Specifications: withoutDescription.Specifications,
    Description: composeDescription(withoutDescription),
    image_count: withoutDescription.image_count,
  };
}
