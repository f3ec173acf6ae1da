/**
 * Turns a shopper's question into catalog search terms: the words that can
 * name a product, without the small talk. "do you have a 40 inch natural gas
 * grill" becomes 40-inch + natural + gas + grill, where 40-inch matches a
 * title's `40-Inch`, `40 Inch` or `40"`, and never the 40 inside `S4005`.
 */

export type QueryTerm =
  | { kind: "word"; text: string }
  /** A number, optionally with the unit that must follow it in the title. */
  | { kind: "number"; value: string; unit: "inch" | "burner" | null };

export interface ProductQuery {
  /** In the order the question names them. */
  terms: QueryTerm[];
  /** "under $2,000" and the like. */
  maxPriceCents: number | null;
  /** "cheapest" asks for the lowest prices first, "most expensive" for the highest. */
  priceOrder: "low" | "high" | null;
}

export const MAX_QUERY_TERMS = 8;

/**
 * Words that never narrow a product search: small talk, question words, and
 * the words of the store's other topics (shipping, returns...), which the
 * chat answers from its facts instead.
 */
const STOP_WORDS = new Set(
  `a about above after again all also am an and any anything anyone are around as at available be been best better buy
  by can cheap cheapest could currently did do does doing each else even ever every find for from get give go good got
  had has have having hello help hey hi how i i'd i'll i'm if in inch inches into is it its just kind know like looking
  look made me might more most much my need needs new nice no not now of off on one only or other our out over please
  price prices priced pricing product products item items recommend recommendation right sell sells selling show so some
  something sort stock stocked the their them then there these they thing things this those to too type under up us use
  very want wanted was we what whats which who will with would yes you your yours thanks thank tell offer offers carry
  carries available? got there's what's cost costs much many sale sales something any? let lets let's see options option
  looking search searching store shop online hello? ok okay great cool sure maybe really well
  policy policies rule rules take takes long fast quick quickly soon time days work works happen happens get gets
  ship ships shipping shipped deliver delivery deliveries delivered freight arrive arrives tracking track return returns
  returning refund refunds exchange contact phone call email e-mail talk speak human agent person order orders ordered
  status warranty defective damaged broken claim privacy finance financing pay payment paying card paypal apr`.split(/\s+/),
);

/** A few words the catalog spells differently. */
const ALIASES: Record<string, string> = {
  ng: "natural gas",
  lp: "propane",
  bbq: "grill",
  barbecue: "grill",
  barbeque: "grill",
  bbqs: "grill",
  griddle: "griddle",
};

const INCH = String.raw`(\d{1,3}(?:\.\d+)?)\s*-?\s*(?:inches|inch|in\b\.?|"|''|″)`;
const BURNER = String.raw`(\d{1,2})\s*-?\s*burners?\b`;
const PRICE_CAP = String.raw`(?:under|below|less\s+than|cheaper\s+than|up\s+to|max(?:imum)?|no\s+more\s+than|within)\s*\$?\s*(\d[\d,]*(?:\.\d{1,2})?)\s*(k\b)?`;

const CHEAP = /\b(cheap|cheaper|cheapest|budget|affordable|inexpensive|lowest[\s-]priced?|least expensive|low[\s-]cost)\b/;
const EXPENSIVE = /\b(most expensive|priciest|highest[\s-]priced?|top of the line|high[\s-]end)\b/;

export function parseProductQuery(question: string): ProductQuery {
  let text = question.normalize("NFKC").toLowerCase().replace(/[“”]/g, '"').replace(/[‘’]/g, "'");
  const found: Array<{ at: number; term: QueryTerm }> = [];
  // Matched parts are blanked with as many spaces, so every term keeps its place in the question.
  const blank = (pattern: RegExp, onMatch: (match: RegExpMatchArray) => void) => {
    for (const match of text.matchAll(pattern)) onMatch(match);
    text = text.replace(pattern, (whole: string) => " ".repeat(whole.length));
  };

  const priceOrder = EXPENSIVE.test(text) ? "high" : CHEAP.test(text) ? "low" : null;
  let maxPriceCents: number | null = null;
  blank(new RegExp(PRICE_CAP, "g"), ([, amount, thousands]) => {
    const dollars = Number(amount.replace(/,/g, "")) * (thousands ? 1000 : 1);
    if (Number.isFinite(dollars) && dollars > 0) maxPriceCents = Math.round(dollars * 100);
  });
  // Any other amount of money says nothing about the product's title.
  blank(/\$\s*\d[\d,]*(?:\.\d+)?k?/g, () => {});
  blank(new RegExp(INCH, "g"), (match) => {
    found.push({ at: match.index ?? 0, term: { kind: "number", value: canonicalNumber(match[1]), unit: "inch" } });
  });
  blank(new RegExp(BURNER, "g"), (match) => {
    found.push({ at: match.index ?? 0, term: { kind: "number", value: canonicalNumber(match[1]), unit: "burner" } });
  });

  for (const token of text.matchAll(/[a-z0-9'&+-]+/g)) {
    const at = token.index ?? 0;
    const word = token[0].replace(/^['&+-]+|['&+-]+$/g, "").replace(/'s$/, "");
    if (word === "" || STOP_WORDS.has(word)) continue;
    if (/^\d+(?:\.\d+)?$/.test(word)) {
      if (word.length <= 5) found.push({ at, term: { kind: "number", value: canonicalNumber(word), unit: null } });
      continue;
    }
    if (word.length < 2 || !/[a-z]/.test(word)) continue;
    const alias = ALIASES[word];
    if (alias) {
      alias.split(" ").forEach((part, offset) => found.push({ at: at + offset / 10, term: { kind: "word", text: part } }));
      continue;
    }
    const singular = singularStem(word);
    if (STOP_WORDS.has(singular)) continue;
    found.push({ at, term: { kind: "word", text: singular } });
  }

  const terms = dedupe(found.sort((a, b) => a.at - b.at).map((entry) => entry.term)).slice(0, MAX_QUERY_TERMS);
  return { terms, maxPriceCents, priceOrder };
}

/**
 * A stem that is contained in both the singular and plural spelling, so a
 * substring match finds either: grills -> grill, benches -> bench,
 * accessories -> accessor. Short words (gas) are left alone.
 */
export function singularStem(word: string): string {
  if (word.length >= 6 && word.endsWith("ies")) return word.slice(0, -3);
  if (word.length >= 5 && /(?:ches|shes|xes|sses|zes)$/.test(word)) return word.slice(0, -2);
  if (word.length >= 4 && word.endsWith("s") && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function canonicalNumber(value: string): string {
  const number = Number(value);
  return Number.isFinite(number) ? String(number) : value;
}

function termKey(term: QueryTerm): string {
  return term.kind === "word" ? `w:${term.text}` : `n:${term.value}:${term.unit ?? ""}`;
}

function dedupe(terms: QueryTerm[]): QueryTerm[] {
  const seen = new Set<string>();
  const numbersWithUnit = new Set(terms.filter((t) => t.kind === "number" && t.unit).map((t) => (t.kind === "number" ? t.value : "")));
  return terms.filter((term) => {
    // "40 inch ... 40" says 40 once.
    if (term.kind === "number" && term.unit === null && numbersWithUnit.has(term.value)) return false;
    const key = termKey(term);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** How a term reads back to the shopper: `40-inch`, `5-burner`, `grill`. */
export function termLabel(term: QueryTerm): string {
  if (term.kind === "word") return term.text;
  return term.unit ? `${term.value}-${term.unit}` : term.value;
}

export function queryLabel(terms: readonly QueryTerm[]): string {
  return terms.map(termLabel).join(" ");
}

/**
 * A case-insensitive PostgreSQL (ARE) and JavaScript regular expression for a
 * number term: the number standing alone (not inside 140, 4005 or 40.5),
 * followed by its unit when it has one.
 */
export function numberPattern(term: Extract<QueryTerm, { kind: "number" }>): string {
  const number = term.value.replace(/\./g, String.raw`\.`);
  const before = String.raw`(^|[^0-9.])`;
  if (term.unit === "inch") return String.raw`${before}${number}(\.0+)? ?-? ?(inch|in\.|in$|in[^a-z]|"|''|″)`;
  if (term.unit === "burner") return String.raw`${before}${number} ?-? ?burner`;
  return String.raw`${before}${number}($|[^0-9]|\.[^0-9])`;
}

/** The same test as the database's, for checking results in code. */
export function titleMatchesTerm(title: string, term: QueryTerm): boolean {
  if (term.kind === "word") return title.toLowerCase().includes(term.text);
  return new RegExp(numberPattern(term), "i").test(title);
}
