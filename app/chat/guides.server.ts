import { and, arrayOverlaps, asc, eq, ilike, type SQL } from "drizzle-orm";
import type { Database } from "~/db/database.server";
import { products } from "~/db/schema";
import { formatInches, formatSpecValue, parseInches, type SpecValues } from "~/catalog/spec-values";
import { productPath } from "~/catalog/store-product";
import { comparePath } from "~/guides/compare";
import { fitPath, fitRuleText, parseFitSearch } from "~/guides/fit";
import { shownInStore } from "~/catalog/product-columns.server";
import { guideColumns } from "~/guides/catalog-columns.server";
import { findByCutout } from "~/guides/fit.server";
import { isAccessoryOfKind, type AskedAccessoryKind } from "~/guides/fits";
import { accessoriesForGrill } from "~/guides/fits.server";
import { heaterNeed, type Climate } from "~/guides/sizing";
import { heatersFor } from "~/guides/sizing.server";
import { formatUsd } from "~/utils/format";
import { formatNumber } from "~/utils/number-format";
import type { ChatLink, ChatMessage } from "./conversation";

/**
 * The chat's buying-guide answers, from the same modules as the pages
 * (app/guides): the cutout finder, fits-my-grill, the heater helper and the
 * compare table. Each answer carries its facts as text: the offline answer
 * shows them, and with a language model they are passed as context.
 */

export interface GuideAnswer {
  text: string;
  links: ChatLink[];
}

const SHOWN = 4;
const GRILL_CATEGORIES = ["Built-In Grills", "BBQ Grills & Smokers"];
const INCHES = String.raw`(\d+(?:\.\d+)?(?:\s+\d+\/\d+)?)\s*(?:"|-?\s*in(?:ch(?:es)?)?\.?)?`;
const OPENING = new RegExp(String.raw`${INCHES}\s*(?:by|x|×)\s*${INCHES}(?:\s*(?:by|x|×)\s*${INCHES})?`, "i");

const link = (product: { key: string; id: string; title: string }): ChatLink => ({ label: product.title, href: productPath(product) });

/** The guide answer for a question, or null when it is not one of the guide questions. */
export async function guideAnswer(db: Database, question: string, history: readonly ChatMessage[] = []): Promise<GuideAnswer | null> {
  const text = question.trim();
  if (/\b(opening|cut ?out|hole|island|space)\b/i.test(text) && OPENING.test(text)) return cutoutAnswer(db, text);
  if (/heat/i.test(text) && /(sq(?:uare)?\.?\s*(?:ft|feet|foot)|square)/i.test(text)) return heaterAnswer(db, text);
  if (/\b(fits?|for)\b/i.test(text) && /\b(cover|rotisserie|accessor(?:y|ies)|side burner|warming rack|grate)\b/i.test(text))
    return fitsAnswer(db, text);
  if (/grilling area|cooking area|bigger|larger|more area/i.test(text) && /\b(two|these|which|or|vs\.?)\b/i.test(text))
    return areaAnswer(db, text, history);
  return null;
}

async function cutoutAnswer(db: Database, question: string): Promise<GuideAnswer | null> {
  const match = OPENING.exec(question);
  if (!match) return null;
  const [width, depth, height] = [match[1], match[2], match[3]].map((value) => (value ? parseInches(value) : null));
  if (!width || !depth) return null;
  const type = /grill/i.test(question) ? "grills" : "all";
  const params: Record<string, string> = { width: String(width), depth: String(depth), type };
  if (height) params.height = String(height);
  let query = parseFitSearch(new URLSearchParams(params)).query;
  let answer = await findByCutout(db, query, SHOWN);
  let widened = "";
  if (answer.total === 0) {
    // Nothing within the usual gap: say so, and show what fits when the frame may cover 2 in.
    const wider = parseFitSearch(new URLSearchParams({ ...params, gap: "2" })).query;
    const second = await findByCutout(db, wider, SHOWN);
    if (second.total > 0) {
      widened = `None fits within ${formatInches(query.gap)} in; allowing a gap of up to ${formatInches(wider.gap)} in (a trim kit or a wider frame may be needed), `;
      query = wider;
      answer = second;
      params.gap = "2";
    }
  }
  const size = `${formatInches(width)} × ${formatInches(depth)}${height ? ` × ${formatInches(height)}` : ""} in`;
  const finder = { label: `All that fit a ${size} opening`, href: fitPath({ width, depth, height }, { type, gap: params.gap ?? "" }) };
  if (answer.total === 0) {
    return {
      text: `Nothing in our catalogue fits a ${size} opening. ${fitRuleText(query.gap)} The cutout finder can try other product types.`,
      links: [finder],
    };
  }
  const lines = answer.results.map(
    (product) =>
      `${product.title} (cutout ${formatInches(product.cutout.width)} × ${formatInches(product.cutout.depth)} in, ${formatUsd(product.priceCents)})`,
  );
  return {
    text: `${widened}${answer.total} ${type === "grills" ? "built-in grills" : "built-in products"} fit a ${size} opening; the snuggest: ${lines.join("; ")}. ${fitRuleText(query.gap)}`,
    links: [...answer.results.map(link), finder],
  };
}

async function heaterAnswer(db: Database, question: string): Promise<GuideAnswer | null> {
  const area = /(\d[\d,]*(?:\.\d+)?)\s*(?:-\s*)?(?:sq(?:uare)?\.?\s*(?:ft|feet|foot)|square)/i.exec(question);
  const sqft = area ? Number(area[1].replace(/,/g, "")) : NaN;
  if (!Number.isFinite(sqft) || sqft <= 0 || sqft > 20_000) return null;
  const covered = !/\b(open|uncovered|no roof)\b/i.test(question);
  const climate: Climate = /\b(cold|freezing|snow)\b/i.test(question) ? "cold" : /\b(mild|warm)\b/i.test(question) ? "mild" : "moderate";
  const need = heaterNeed(sqft, covered, climate);
  const heaters = await heatersFor(db, need, SHOWN);
  const lines = heaters.map((heater) => {
    const output = heater.specValues.watts
      ? formatSpecValue("watts", heater.specValues.watts)
      : formatSpecValue("btu", heater.specValues.btu ?? 0);
    return `${heater.count} × ${heater.title} (${output} each, ${formatUsd(heater.priceCents)})`;
  });
  const params = new URLSearchParams({ area: String(sqft), covered: covered ? "covered" : "open", climate });
  return {
    text: `A ${formatNumber(sqft)} sq ft ${covered ? "covered" : "open"} patio needs about ${formatNumber(need.watts)} W or ${formatNumber(need.btu)} BTU. ${need.rule}${lines.length > 0 ? ` Heaters that meet it: ${lines.join("; ")}.` : ""}`,
    links: [...heaters.map(link), { label: "Patio heater size helper", href: `/heater-helper?${params}` }],
  };
}

const STOP = new Set([
  "what",
  "which",
  "cover",
  "covers",
  "fits",
  "fit",
  "the",
  "a",
  "an",
  "for",
  "my",
  "does",
  "do",
  "will",
  "grill",
  "rotisserie",
  "accessory",
  "accessories",
  "is",
  "there",
  "side",
  "burner",
  "warming",
  "rack",
  "grate",
  "to",
  "of",
  "on",
]);

function productWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[?!.,]/g, " ")
    .split(/\s+/)
    .filter((word) => word.length > 0 && !STOP.has(word))
    .slice(0, 8);
}

/** The first grill (catalog order) whose title holds every word. */
async function findGrill(db: Database, words: readonly string[]) {
  if (words.length === 0) return null;
  const conditions: SQL[] = words.map((word) => ilike(products.title, `%${word.replace(/[\\%_]/g, "\\$&")}%`));
  const [row] = await db
    .select(guideColumns)
    .from(products)
    .where(and(shownInStore, arrayOverlaps(products.categories, GRILL_CATEGORIES), ...conditions))
    .orderBy(asc(products.position))
    .limit(1);
  return row ?? null;
}

async function fitsAnswer(db: Database, question: string): Promise<GuideAnswer | null> {
  const target = /\b(?:fits?|for)\s+(?:the\s+|my\s+|a\s+)?(.+)$/i.exec(question);
  const grill = await findGrill(db, productWords(target ? target[1] : question));
  if (!grill) return null;
  const values = grill.specValues as SpecValues;
  const all = await accessoriesForGrill(db, {
    key: grill.key,
    brand: grill.brand,
    title: grill.title,
    categories: grill.categories,
    grillModel: values.grillModel ?? null,
    collection: values.collection ?? null,
    fuelType: values.fuelType ?? null,
  });
  const kind: AskedAccessoryKind | null = /cover/i.test(question) ? "cover" : /rotisserie/i.test(question) ? "rotisserie" : null;
  const fitting = kind ? all.filter((product) => isAccessoryOfKind(product, kind)) : all;
  const shown = fitting.slice(0, SHOWN);
  const noun = kind ? `${kind}s` : "accessories";
  if (shown.length === 0) {
    return { text: `I found no ${noun} in our catalogue listed for the ${grill.title}.`, links: [link(grill)] };
  }
  return {
    text: `${shown.length === 1 ? `This ${kind ?? "accessory"} fits` : `These ${noun} fit`} the ${grill.title}: ${shown.map((product) => `${product.title} (${formatUsd(product.priceCents)})`).join("; ")}. The match uses each accessory's listed grill model, size and built-in or freestanding fit.`,
    links: [...shown.map(link), { label: `${grill.title} (accessories on its page)`, href: productPath(grill) }],
  };
}

async function areaAnswer(db: Database, question: string, history: readonly ChatMessage[]): Promise<GuideAnswer | null> {
  let keys: string[] = [];
  const parts = question.split(/\s+(?:or|vs\.?|versus|and)\s+/i);
  if (parts.length === 2) {
    const found = await Promise.all(
      parts.map((part) => findGrill(db, productWords(part.replace(/.*\b(?:between|area|bigger|larger)\b[:,]?/i, "")))),
    );
    if (found[0] && found[1] && found[0].key !== found[1].key) keys = [found[0].key, found[1].key];
  }
  if (keys.length < 2) {
    const recent = [...history]
      .reverse()
      .flatMap((message) => message.links ?? [])
      .map((entry) => /^\/product\/([^/?#]+)$/.exec(entry.href)?.[1])
      .filter((key): key is string => Boolean(key))
      .map((key) => decodeURIComponent(key));
    keys = [...new Set(recent)].slice(0, 2);
  }
  if (keys.length < 2) return null;
  const pair = await Promise.all(
    keys.map(async (key) => {
      const [row] = await db
        .select({ key: products.key, id: products.sourceId, title: products.title, specValues: products.specValues })
        .from(products)
        .where(and(eq(products.key, key), shownInStore))
        .limit(1);
      return row ?? null;
    }),
  );
  const [first, second] = pair;
  if (!first || !second) return null;
  const area = (values: SpecValues) => values.mainGrillingArea ?? values.totalGrillingArea ?? null;
  const a = area(first.specValues as SpecValues);
  const b = area(second.specValues as SpecValues);
  const links = [link(first), link(second), { label: "Compare them side by side", href: comparePath([first.key, second.key]) }];
  if (a === null || b === null) {
    const missing = a === null ? first.title : second.title;
    return { text: `Our catalogue lists no grilling area for the ${missing}, so I can't say which is bigger.`, links };
  }
  const describe = (title: string, value: number) => `${title}: ${formatSpecValue("mainGrillingArea", value)}`;
  if (a === b) return { text: `They have the same grilling area (${formatSpecValue("mainGrillingArea", a)}).`, links };
  const [bigger, smaller] = a > b ? [first, second] : [second, first];
  return {
    text: `The ${bigger.title} has more grilling area. ${describe(first.title, a)}; ${describe(second.title, b)} (main grilling area, or total where no main area is listed).`,
    links: [link(bigger), link(smaller), links[2]],
  };
}
