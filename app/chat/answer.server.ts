import type { Database } from "~/db/database.server";
import type { ChatMessage as GeneratorMessage, TextGenerator } from "~/services/text/types";
import { CHAT_ERRORS, QUICK_OPTIONS, truncate, type ChatLink, type ChatMessage, type ChatOption } from "./conversation";
import { contactText } from "./flow.server";
import { guideAnswer, type GuideAnswer } from "./guides.server";
import {
  buildSystemPrompt,
  displayedBrandNames,
  findProductMatches,
  NO_MATCHES,
  topCategories,
  type CatalogMatches,
} from "./grounding.server";
import { contactLinks, FACTS_BY_TOPIC, TOPIC_HEADINGS, TOPIC_LINKS, type FactTopic, type StoreContact } from "./store-facts";
import { questionTopics, type QuestionTopic } from "./topics";
import { storeLog } from "~/observability/logger.server";

/** The model's answer is kept to this many characters. */
export const MAX_ANSWER_CHARS = 1_200;
export const ANSWER_MAX_TOKENS = 400;
/** Earlier messages sent to the model with the question. */
export const HISTORY_FOR_MODEL = 6;
const PRODUCT_LINK_LABEL_CHARS = 110;

export interface Answer {
  text: string;
  links: ChatLink[];
  options: ChatOption[];
  /** model: the language model answered; offline: answered from facts and the catalog; error: a failure message. */
  source: "model" | "offline" | "error";
}

export interface AnswerDeps {
  store: StoreContact;
  /** The runtime's text generator (context.store.textGenerator), or a test's. */
  generator: TextGenerator;
  /** The conversation before this question, oldest first. */
  history?: readonly ChatMessage[];
  logger?: Pick<Console, "error">;
}

/**
 * Answers a typed question. The catalog is searched first; with a language
 * model the answer is the model's, grounded in the store's facts and those
 * matches, with links to the matched products; without one (the generator's
 * chat gives null) the answer is put together from the same facts and
 * matches, and says plainly what it is.
 */
export async function answerQuestion(db: Database, question: string, deps: AnswerDeps): Promise<Answer> {
  const { store } = deps;
  const logger = deps.logger ?? storeLog;
  const { generator } = deps;

  let guide: GuideAnswer | null = null;
  try {
    guide = await guideAnswer(db, question, deps.history ?? []);
  } catch (error) {
    logger.error("Chat: the buying guide answer failed", error);
  }
  if (guide) return answerFromGuide(guide, question, deps, generator, logger);

  let catalog: CatalogMatches;
  try {
    catalog = await findProductMatches(db, question);
  } catch (error) {
    logger.error("Chat: catalog search failed", error);
    return failure(CHAT_ERRORS.products);
  }
  const topics = questionTopics(question);
  const relevant = showsProducts(catalog, topics) ? catalog : NO_MATCHES;

  if (!generator.isStandIn) {
    try {
      const categories = await topCategories(db).catch((error: unknown) => {
        logger.error("Chat: categories could not be loaded", error);
        return [];
      });
      const system = buildSystemPrompt({ store, brands: displayedBrandNames(), categories, catalog: relevant });
      const reply = await generator.chat({
        system,
        messages: [...historyForModel(deps.history ?? []), { role: "user", content: question }],
        maxTokens: ANSWER_MAX_TOKENS,
      });
      if (reply !== null) {
        const text = reply.trim();
        if (text === "") throw new Error("The language model answered with no text");
        return { text: truncate(text, MAX_ANSWER_CHARS), links: productLinks(relevant), options: [...QUICK_OPTIONS], source: "model" };
      }
    } catch (error) {
      logger.error("Chat: the text generator failed", error);
      return failure(CHAT_ERRORS.generation);
    }
  }
  return offlineAnswer(question, relevant, catalog, topics, store);
}

/**
 * A buying-guide question (cutout, fits-my-grill, heater size, which has more
 * area): offline, the guide's own answer; with a language model, the same
 * facts are its context, and the links are the guide's.
 */
async function answerFromGuide(
  guide: GuideAnswer,
  question: string,
  deps: AnswerDeps,
  generator: TextGenerator,
  logger: Pick<Console, "error">,
): Promise<Answer> {
  if (!generator.isStandIn) {
    try {
      const system = buildSystemPrompt({
        store: deps.store,
        brands: displayedBrandNames(),
        categories: [],
        catalog: NO_MATCHES,
        guideFacts: guide.text,
      });
      const reply = await generator.chat({
        system,
        messages: [...historyForModel(deps.history ?? []), { role: "user", content: question }],
        maxTokens: ANSWER_MAX_TOKENS,
      });
      if (reply !== null && reply.trim() !== "") {
        return { text: truncate(reply.trim(), MAX_ANSWER_CHARS), links: guide.links, options: [...QUICK_OPTIONS], source: "model" };
      }
      if (reply !== null) throw new Error("The language model answered with no text");
    } catch (error) {
      logger.error("Chat: the text generator failed", error);
      return failure(CHAT_ERRORS.generation);
    }
  }
  return { text: truncate(guide.text, MAX_ANSWER_CHARS * 2), links: guide.links, options: [...QUICK_OPTIONS], source: "offline" };
}

function failure(text: string): Answer {
  return { text, links: [], options: [...QUICK_OPTIONS], source: "error" };
}

/**
 * Products belong in the answer when the question is about them: always when
 * it touches no other topic, and for "do you ship 40 inch grills" only when
 * the product part is specific (two terms or more) and matched exactly.
 */
function showsProducts(catalog: CatalogMatches, topics: readonly QuestionTopic[]): boolean {
  if (catalog.kind === "none") return false;
  const otherTopics = topics.filter((topic) => topic !== "greeting" && topic !== "thanks" && topic !== "seasoning");
  if (otherTopics.length === 0) return true;
  return catalog.kind === "exact" && catalog.termCount >= 2;
}

function productLinks(catalog: CatalogMatches): ChatLink[] {
  const links = catalog.matches.map((match) => ({ label: truncate(match.title, PRODUCT_LINK_LABEL_CHARS), href: match.path }));
  if (catalog.kind === "exact" && catalog.findingText && catalog.total > catalog.matches.length) {
    links.push({ label: `See all ${catalog.total} matches`, href: `/finding/${encodeURIComponent(catalog.findingText)}` });
  }
  return links;
}

function historyForModel(history: readonly ChatMessage[]): GeneratorMessage[] {
  return history.slice(-HISTORY_FOR_MODEL).map((message) => ({
    role: message.sender === "user" ? "user" : "assistant",
    content: truncate(message.text, 600),
  }));
}

const FACT_TOPICS: ReadonlySet<QuestionTopic> = new Set<FactTopic>(Object.keys(FACTS_BY_TOPIC) as FactTopic[]);

/**
 * The answer without a language model: the matching products, the facts of
 * each topic the question touches, or a pointer to browsing and to the team.
 */
function offlineAnswer(
  question: string,
  relevant: CatalogMatches,
  catalog: CatalogMatches,
  topics: readonly QuestionTopic[],
  store: StoreContact,
): Answer {
  const paragraphs: string[] = [];
  const links: ChatLink[] = [];

  for (const topic of topics) {
    if (topic === "seasoning" && relevant.kind !== "none") continue;
    if (FACT_TOPICS.has(topic)) {
      const factTopic = topic as FactTopic;
      paragraphs.push(`${TOPIC_HEADINGS[factTopic]}: ${FACTS_BY_TOPIC[factTopic].join(" ")}`);
      links.push(TOPIC_LINKS[factTopic]);
    } else if (topic === "contact") {
      paragraphs.push(contactText(store));
      links.push(...contactLinks(store));
    } else if (topic === "greeting" && paragraphs.length === 0) {
      paragraphs.push(
        "Hello! Tell me what you are looking for, such as “40 inch natural gas grill” or “patio heater”, and I will search our catalog. I can also tell you about delivery, returns and how to reach us.",
      );
    } else if (topic === "thanks" && paragraphs.length === 0) {
      paragraphs.push("You're welcome! Is there anything else I can help you find?");
    }
  }

  // The products come last, so their links follow the sentence that introduces them.
  if (relevant.kind !== "none") {
    const unknown = relevant.unknownTerms.length > 0 ? `No product in our catalog mentions “${relevant.unknownTerms.join(" ")}”. ` : "";
    if (relevant.kind === "exact") {
      const count = relevant.total > relevant.matches.length ? ` (the best ${relevant.matches.length} of ${relevant.total})` : "";
      paragraphs.push(`${unknown}Here are products from our catalog that match “${relevant.label}”${count}:`);
    } else {
      paragraphs.push(
        `${unknown}I couldn't find a product matching all of “${relevant.label}”. These are the closest ones in our catalog:`,
      );
    }
    links.unshift(...productLinks(relevant));
  }

  if (paragraphs.length === 0) {
    const what = catalog.label || catalog.unknownTerms.join(" ");
    paragraphs.push(
      catalog.asksForProducts && what
        ? `I couldn't find products matching “${truncate(what, 80)}” in our catalog. Try a brand or a kind of product, such as “Blaze grill” or “patio heater”, or choose Products to browse by brand.`
        : "I can search our catalog for products and answer questions about delivery, returns and contacting us. Try a brand or a kind of product, such as “40 inch natural gas grill” or “patio heater”, or choose an option below.",
      `Our team can also help: call ${store.phone} or email ${store.email}.`,
    );
    if (question.trim() !== "") links.push({ label: "Contact page", href: "/contact" });
  }

  return { text: paragraphs.join("\n\n"), links: dedupeLinks(links), options: [...QUICK_OPTIONS], source: "offline" };
}

function dedupeLinks(links: ChatLink[]): ChatLink[] {
  const seen = new Set<string>();
  return links.filter((link) => (seen.has(link.href) ? false : (seen.add(link.href), true)));
}
