import { inArray } from "drizzle-orm";
import { priceNowCents } from "~/catalog/product-columns.server";
import type { Database } from "~/db/database.server";
import { products, type OrderItem } from "~/db/schema";
import { formatUsd } from "~/utils/format";

/**
 * A recorded checkout's lines against the catalogue now, for its payment step. A checkout keeps the
 * prices it was made with (its total is what the payment charges: payments/start-payment.server.ts), so a
 * price changed since (a sale started or ended, the merchant repriced) is only said; a product the
 * merchant has hidden since is refused, as a line short of stock is (stock/storefront-stock.server.ts).
 */

type Line = Pick<OrderItem, "productKey" | "title" | "unitPriceCents">;

interface CheckoutLineNotices {
  /** Lines of products no longer sold: the checkout cannot be paid (null when there are none). */
  unavailableMessage: string | null;
  /** One sentence per line whose price now differs from the checkout's. */
  priceNotices: string[];
}

async function catalogueNow(db: Pick<Database, "select">, items: readonly Line[]) {
  const keys = [...new Set(items.map((item) => item.productKey))];
  if (keys.length === 0) return new Map<string, { priceCents: number; shown: boolean }>();
  const rows = await db
    // `published`: what shownInStore tests (product-columns.server.ts).
    .select({ key: products.key, priceCents: priceNowCents, shown: products.published })
    .from(products)
    .where(inArray(products.key, keys));
  return new Map(rows.map((row) => [row.key, { priceCents: row.priceCents, shown: row.shown }]));
}

/** The titles of the lines whose product the merchant has hidden (a product gone from the catalogue is not refused here). */
function unavailableTitles(items: readonly Line[], now: Awaited<ReturnType<typeof catalogueNow>>): string[] {
  return [...new Set(items.filter((item) => now.get(item.productKey)?.shown === false).map((item) => item.title))];
}

function unavailableText(titles: readonly string[]): string {
  const names = titles.map((title) => `“${title}”`).join(", ");
  return `${names} ${titles.length === 1 ? "is" : "are"} no longer available.`;
}

/** What the shopper reads when payment was refused for a line no longer sold. */
export function unavailableRefusal(titles: readonly string[]): string {
  return `${unavailableText(titles)} Please change your order: nothing was charged.`;
}

/** "The price of X changed to $1,799.00 after this checkout was made. This checkout keeps $1,999.00." */
function priceChangeNotice(title: string, nowCents: number, thenCents: number): string {
  return `The price of ${title} changed to ${formatUsd(nowCents)} after this checkout was made. This checkout keeps ${formatUsd(thenCents)}.`;
}

/**
 * The payment step's words on the checkout's lines, read for each view: the lines no longer sold (as the
 * refusal says it, `afterRefusal`, or as a warning before paying) and the lines repriced since.
 */
export async function checkoutLineNotices(
  db: Pick<Database, "select">,
  checkout: { items: readonly Line[] },
  { afterRefusal = false }: { afterRefusal?: boolean } = {},
): Promise<CheckoutLineNotices> {
  const now = await catalogueNow(db, checkout.items);
  const titles = unavailableTitles(checkout.items, now);
  const priceNotices = checkout.items.flatMap((item) => {
    const current = now.get(item.productKey);
    return current?.shown && current.priceCents !== item.unitPriceCents
      ? [priceChangeNotice(item.title, current.priceCents, item.unitPriceCents)]
      : [];
  });
  return {
    unavailableMessage:
      titles.length === 0
        ? null
        : afterRefusal
          ? unavailableRefusal(titles)
          : `${unavailableText(titles)} Please change your order before you pay.`,
    priceNotices: [...new Set(priceNotices)],
  };
}

/** The lines of a checkout no longer sold, by title: payment is not started for one (empty when every line is sold). */
export async function unavailableCheckoutLines(db: Pick<Database, "select">, checkout: { items: readonly Line[] }): Promise<string[]> {
  return unavailableTitles(checkout.items, await catalogueNow(db, checkout.items));
}
