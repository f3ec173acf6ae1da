import { eq } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { productDescriptions } from "~/db/schema";
import type { TextGenerator } from "~/services/text/types";
import { splitDescription } from "./description";

/**
 * The reformatted description of a product (the text before the legal
 * marker). A stored one is reused; otherwise the text generator reformats it
 * once and the result is stored. When the generator fails, the original
 * text is shown and nothing is stored, so a later visit tries again.
 */
export async function reformattedDescription(
  db: Database,
  generator: TextGenerator,
  product: { key: string; description: string },
): Promise<string> {
  const [stored] = await db
    .select({ description: productDescriptions.description })
    .from(productDescriptions)
    .where(eq(productDescriptions.productKey, product.key));
  if (stored) return stored.description;

  const { body } = splitDescription(product.description);
  try {
    const formatted = (await generator.reformatDescription(body)).trim();
    if (!formatted) return body;
    await db
      .insert(productDescriptions)
      .values({ productKey: product.key, description: formatted })
      .onConflictDoNothing();
    return formatted;
  } catch (error) {
    console.error(`Description generation failed for ${product.key}: ${(error as Error).message}`);
    return body;
  }
}
