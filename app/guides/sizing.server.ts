import { and, arrayContains, arrayOverlaps, asc, eq, not, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { products } from "~/db/schema";
import type { SpecValues } from "~/catalog/spec-values";
import { priceNowCents, shownInStore } from "~/catalog/product-columns.server";
import { guideColumns, specNumber, specText } from "./catalog-columns.server";
import { heatersNeeded, type GrillNeed, type HeaterNeed } from "./sizing";

export const SIZING_LIMIT = 24;
const HEATER_CATEGORY = "Patio Heaters";
const NOT_HEATERS = ["Patio Heater Accessories", "Patio Heater Mounts, Brackets, & Frames", "Patio Heater Remotes & Control Systems"];

export interface SizedProduct {
  key: string;
  id: string;
  brand: string;
  title: string;
  priceCents: number;
  image: string;
  specValues: SpecValues;
  /** Heaters: how many of this one meet the need. */
  count: number | null;
}

/** Patio heaters with a BTU or watt rating, fewest units for the need first, then cheapest. */
export async function heatersFor(db: Database, need: HeaterNeed, limit = SIZING_LIMIT): Promise<SizedProduct[]> {
  const watts = specNumber("watts");
  const btu = specNumber("btu");
  const units = sql`ceil(coalesce(${need.watts}::numeric / nullif(${watts}, 0), ${need.btu}::numeric / nullif(${btu}, 0)))`;
  const rows = await db
    .select(guideColumns)
    .from(products)
    .where(
      and(
        shownInStore,
        arrayContains(products.categories, [HEATER_CATEGORY]),
        not(arrayOverlaps(products.categories, NOT_HEATERS)),
        or(sql`${watts} > 0`, sql`${btu} > 0`),
      ),
    )
    .orderBy(units, asc(priceNowCents), asc(products.position))
    .limit(limit);
  return rows.map((row) => ({
    ...row,
    count: heatersNeeded(need, { watts: row.specValues.watts as number, btu: row.specValues.btu as number }),
  }));
}

/** Grills whose main grilling area (and burger count, when listed) meet the need: the smallest that do first. */
export async function grillsFor(
  db: Database,
  need: GrillNeed,
  fuel = "",
  limit = SIZING_LIMIT,
): Promise<{ grills: SizedProduct[]; total: number }> {
  const area = specNumber("mainGrillingArea");
  const burgers = specNumber("burgerCount");
  const conditions: SQL[] = [
    shownInStore,
    sql`${area} >= ${need.areaSqIn}`,
    sql`(${burgers} is null or ${burgers} >= ${need.burgers})`,
    arrayOverlaps(products.categories, ["Built-In Grills", "BBQ Grills & Smokers"]),
  ];
  if (fuel) conditions.push(eq(specText("fuelType"), fuel));
  const rows = await db
    .select({ ...guideColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(products)
    .where(and(...conditions))
    .orderBy(area, asc(priceNowCents), asc(products.position))
    .limit(limit);
  return { grills: rows.map(({ total: _total, ...row }) => ({ ...row, count: null })), total: rows[0]?.total ?? 0 };
}
