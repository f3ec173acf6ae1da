import type { CatalogProduct, Specification } from "./product";
import { OWN_SEASONING_ID } from "./product";
import { composeDescription } from "./description";
import { imagePaths } from "./image-url";

/** Price of the store's own seasoning (spec, section 9). */
import { OWN_SEASONING_PRICE } from "./brands";

export { OWN_SEASONING_PRICE };

/** Exactly the six specifications the seasoning page shows, in this order. */
const SPECIFICATIONS: Specification[] = [
  { "Net Weight": "6 oz (170 g)" },
  { Brand: "LOVE RUB" },
  { Tagline: "Made with love, finished with fire." },
  {
    Ingredients:
      "Brown sugar, sea salt, smoked paprika, black pepper, garlic, onion, chili powder, cumin, oregano, cayenne pepper",
  },
  { Allergens: "Contains no major food allergens. Packed in a facility that also handles wheat, soy and sesame." },
  { "Made In": "USA" },
];

const base = {
  Id: OWN_SEASONING_ID,
  Model: OWN_SEASONING_ID,
  brand: "custom_product",
  Title: "LOVE RUB All-Purpose BBQ Seasoning",
  Price: OWN_SEASONING_PRICE,
  Category: ["Home", "BBQ Grilling Tools & Accessories", "Seasonings & Rubs"],
  Specifications: SPECIFICATIONS,
  image_count: 3,
} satisfies Omit<CatalogProduct, "Image" | "Other_image" | "Description">;

const images = imagePaths(base.brand, base.Id, base.image_count);

/** The LOVE RUB record written to catalog/custom_product.json by the importer. */
export const LOVE_RUB: CatalogProduct = {
  Id: base.Id,
  Model: base.Model,
  brand: base.brand,
  Title: base.Title,
  Price: base.Price,
  Image: images[0] ?? "",
  Other_image: images,
  Category: base.Category,
  Specifications: base.Specifications,
  Description: composeDescription(base),
  image_count: base.image_count,
};

/** Every record of catalog/custom_product.json. */
export const CUSTOM_PRODUCTS: readonly CatalogProduct[] = [LOVE_RUB];
