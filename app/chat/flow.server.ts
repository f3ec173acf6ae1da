import { getProductByKey, listProducts } from "~/catalog/queries.server";
import { brandDisplayName, DISPLAYED_BRANDS } from "~/catalog/product";
import { productPath } from "~/catalog/store-product";
import type { Database } from "~/db/database.server";
import { formatUsd } from "~/utils/format";
import {
  BRAND_OPTION_PREFIX,
  CHAT_ERRORS,
  createMessage,
  PRODUCT_OPTION_PREFIX,
  QUICK_OPTIONS,
  replyDelayFor,
  truncate,
  type ChatMessage,
  type ChatOption,
} from "./conversation";
import { contactLinks, DELIVERY_FACTS, type StoreContact } from "./store-facts";
import { storeLog } from "~/observability/logger.server";

/** A brand's reply lists this many of its products. */
export const BRAND_PRODUCTS_SHOWN = 10;
const OPTION_LABEL_CHARS = 90;

export interface FlowDeps {
  store: StoreContact;
  now?: Date;
  logger?: Pick<Console, "error">;
}

export interface FlowReply {
  /** What the shopper's message says: the chosen option's label, looked up here, never taken from the form. */
  userText: string;
  reply: ChatMessage;
  /** Milliseconds the page waits before showing the reply (the product reply's 500 ms). */
  delayMs: number;
}

const DISPLAYED_BRAND_SET: ReadonlySet<string> = new Set(DISPLAYED_BRANDS);

export function brandOptions(): ChatOption[] {
  return DISPLAYED_BRANDS.map((brand) => ({ label: brandDisplayName(brand), value: `${BRAND_OPTION_PREFIX}${brand}` }));
}

export function deliveryText(): string {
  return `Here is how delivery works:\n${DELIVERY_FACTS.map((fact) => `• ${fact}`).join("\n")}`;
}

export function contactText(store: StoreContact): string {
  return `You can reach our sales team by phone at ${store.phone} or by email at ${store.email}. You can also send us a message on our contact page.`;
}

/**
 * The reply to a quick option: Products lists the brands, a brand lists its
 * first products, a product gives the link to its page, Contact and Delivery
 * give the store's facts. Null for a value that is no option.
 */
export async function replyToOption(db: Database, value: string, deps: FlowDeps): Promise<FlowReply | null> {
  const now = deps.now ?? new Date();
  const reply = (text: string, extras: Parameters<typeof createMessage>[2] = {}) => createMessage("server", text, extras, now);

  if (value === "products") {
    return {
      userText: "Products",
      reply: reply("Which brand are you interested in?", { options: brandOptions() }),
      delayMs: 0,
    };
  }
  if (value === "contact") {
    return {
      userText: "Contact",
      reply: reply(contactText(deps.store), { links: contactLinks(deps.store), options: [...QUICK_OPTIONS] }),
      delayMs: 0,
    };
  }
  if (value === "delivery") {
    return {
      userText: "Delivery",
      reply: reply(deliveryText(), {
        links: [
          { label: "Shipping policy", href: "/shipping-policy" },
          { label: "Check order status", href: "/order-status" },
        ],
        options: [...QUICK_OPTIONS],
      }),
      delayMs: 0,
    };
  }
  if (value.startsWith(BRAND_OPTION_PREFIX)) {
    const brand = value.slice(BRAND_OPTION_PREFIX.length);
    if (!DISPLAYED_BRAND_SET.has(brand)) return null;
    return { userText: brandDisplayName(brand), reply: await brandReply(db, brand, deps, reply), delayMs: 0 };
  }
  if (value.startsWith(PRODUCT_OPTION_PREFIX)) {
    const key = value.slice(PRODUCT_OPTION_PREFIX.length);
    if (key === "" || key.length > 120) return null;
    return productReply(db, key, deps, reply, replyDelayFor(value));
  }
  return null;
}

type Reply = (text: string, extras?: Parameters<typeof createMessage>[2]) => ChatMessage;

async function brandReply(db: Database, brand: string, deps: FlowDeps, reply: Reply): Promise<ChatMessage> {
  const name = brandDisplayName(brand);
  let page;
  try {
    page = await listProducts(db, { brand, category: "all", page: 1 });
  } catch (error) {
    (deps.logger ?? storeLog).error("Chat: products of a brand could not be loaded", error);
    return reply(CHAT_ERRORS.products, { options: [...QUICK_OPTIONS] });
  }
  const shown = page.products.slice(0, BRAND_PRODUCTS_SHOWN);
  if (shown.length === 0) {
    return reply(`We have no ${name} products in our catalog right now. Would you like to look at another brand?`, {
      options: brandOptions(),
    });
  }
  const intro =
    page.total > shown.length
      ? `Here are ${shown.length} of our ${page.total} ${name} products. Choose one to get its link:`
      : `Here ${shown.length === 1 ? "is our" : `are our ${shown.length}`} ${name} product${shown.length === 1 ? "" : "s"}. Choose one to get its link:`;
  return reply(intro, {
    options: shown.map((product) => ({
      label: truncate(product.title, OPTION_LABEL_CHARS),
      value: `${PRODUCT_OPTION_PREFIX}${product.key}`,
    })),
    links: [{ label: `More from ${name}`, href: `/products/${brand}/all` }],
  });
}

async function productReply(db: Database, key: string, deps: FlowDeps, reply: Reply, delayMs: number): Promise<FlowReply | null> {
  let product;
  try {
    product = await getProductByKey(db, key);
  } catch (error) {
    (deps.logger ?? storeLog).error("Chat: a product could not be loaded", error);
    return { userText: "A product", reply: reply(CHAT_ERRORS.products, { options: [...QUICK_OPTIONS] }), delayMs };
  }
  if (!product) return null;
  const brand = brandDisplayName(product.brand);
  return {
    userText: truncate(product.title, OPTION_LABEL_CHARS),
    reply: reply(`Here is its page, with photos, specifications and ordering. It costs ${formatUsd(product.priceCents)}.`, {
      links: [{ label: truncate(product.title, OPTION_LABEL_CHARS), href: productPath(product) }],
      options: DISPLAYED_BRAND_SET.has(product.brand)
        ? [{ label: `Other ${brand} products`, value: `${BRAND_OPTION_PREFIX}${product.brand}` }, ...QUICK_OPTIONS]
        : [...QUICK_OPTIONS],
    }),
    delayMs,
  };
}
