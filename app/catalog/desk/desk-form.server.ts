import { z } from "zod";
import {
  DESCRIPTION_MAX,
  parseOptionalPriceInput,
  parsePriceInput,
  parseUtcDateTimeInput,
  TITLE_MAX,
  type Parsed,
} from "./desk-values";
import { DESK_DETAILS_INTENT, DESK_PRICE_INTENT } from "./catalog-desk";

/**
 * The catalogue desk's two forms on a product's page: its prices (owners only, app/staff/roles.ts) and its
 * details (title, description, published or hidden, the returns policy's flags). Each carries the product's
 * `version` as the page showed it.
 */

function parsedWith<T>(parse: (text: string) => Parsed<T>) {
  return z
    .string()
    .max(100, { message: "That value is too long." })
    .default("")
    .transform((text, ctx) => {
      const parsed = parse(text);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    });
}

const version = z.coerce.number({ message: "Please reload the page and try again." }).int().min(0);
const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on" || value === "1" || value === "yes");


export const deskForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal(DESK_PRICE_INTENT),
    version,
    priceCents: parsedWith((text) => parsePriceInput(text, "The price")),
    compareAtCents: parsedWith((text) => parseOptionalPriceInput(text, "The compare-at price")),
    salePriceCents: parsedWith((text) => parseOptionalPriceInput(text, "The sale price")),
    saleStartsAt: parsedWith((text) => parseUtcDateTimeInput(text, "The sale's start")),
    saleEndsAt: parsedWith((text) => parseUtcDateTimeInput(text, "The sale's end")),
  }),
  z.object({
    intent: z.literal(DESK_DETAILS_INTENT),
    version,
    title: z
      .string()
      .default("")
      .transform((text) => text.trim())
      .pipe(
        z
          .string()
          .min(1, { message: "The title cannot be empty." })
          .max(TITLE_MAX, { message: `The title must be at most ${TITLE_MAX} characters.` }),
      ),
    description: z
      .string()
      .default("")
      .transform((text) => text.trim())
      .pipe(
        z
          .string()
          .min(1, { message: "The description cannot be empty." })
          .max(DESCRIPTION_MAX, { message: `The description must be at most ${DESCRIPTION_MAX.toLocaleString("en-US")} characters.` }),
      ),
    visibility: z.enum(["published", "hidden"], { message: "Choose whether shoppers see the product." }),
    nonReturnable: checkbox,
    customMade: checkbox,
    madeToOrder: checkbox,
  }),
]);

export type DeskForm = z.output<typeof deskForm>;
