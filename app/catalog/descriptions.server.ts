import { eq } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { productDescriptions } from "~/db/schema";
import type { TextGenerator } from "~/services/text/types";
import { splitDescription } from "./description";
import { logError } from "~/observability/logger.server";

export { splitDescription };

/*
 * The reformatted description of a product (the text before the legal
 * marker): a stored one is reused; otherwise the text generator reformats it
 * once and the result is stored. When the generator fails, the original
 * text is shown and nothing is stored, so a later visit tries again.
 */

/** The stored reformatted description, or null when none was made yet. */
export async function storedDescription(db: Database, productKey: string): Promise<string | null> {
  const [stored] = await db
    .select({ description: productDescriptions.description })
    .from(productDescriptions)
    .where(eq(productDescriptions.productKey, productKey));
  return stored?.description ?? null;
}

/** Reformats the description with the generator and stores it; on failure the original text. */
export async function generateDescription(
  db: Database,
  generator: TextGenerator,
  product: { key: string; description: string },
): Promise<string> {
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
    logError(`Description generation failed for ${product.key}`, error);
    return body;
  }
}
