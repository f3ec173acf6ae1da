import { existsSync } from "node:fs";
import { z } from "zod";
import { isUsState, type UsState } from "./utils/us-states";

/**
 * Every environment key the store reads, validated once at start-up.
 * Empty values count as unset, so `.env.example` can be copied as it is.
 * `.env.example` documents each key; keep the two in step.
 */
const optional = z.string().trim().min(1).optional();

const postgresUrl = z
  .string()
  .trim()
  .refine((value) => /^postgres(ql)?:\/\/[^\s]+$/.test(value) && isUrl(value), {
    message: "must be a postgres:// or postgresql:// URL",
  });

const httpUrl = z
  .string()
  .trim()
  .refine((value) => /^https?:\/\//.test(value) && isUrl(value), {
    message: "must be an http:// or https:// URL",
  });

const environment = z.enum(["sandbox", "production"]);

const count = z
  .string()
  .trim()
  .regex(/^\d{1,7}$/, { message: "must be a whole number" })
  .transform(Number);

const milliseconds = z
  .string()
  .trim()
  .regex(/^\d{1,7}$/, { message: "must be a whole number of milliseconds" })
  .transform(Number)
  .refine((value) => value >= 1_000 && value <= 600_000, { message: "must be between 1000 and 600000 milliseconds" });

/**
 * The states the offline tax table charges sales tax in when TAX_REGISTERED_STATES is unset: a fresh clone
 * shows tax in a few states, and says so at start-up (README, "Sales tax").
 */
export const DEMO_TAX_STATES: readonly UsState[] = ["CA", "NY", "TN", "WA"];

/** "CA, NY" → ["CA", "NY"]; "none" → []: two-letter codes of the states and DC, each once. */
const stateList = z
  .string()
  .trim()
  .transform((value) => (value.toLowerCase() === "none" ? [] : value.split(",").map((code) => code.trim().toUpperCase())))
  .refine((codes) => codes.every(isUsState), { message: 'must list two-letter state codes separated by commas (e.g. "CA,NY"), or "none"' })
  .transform((codes) => [...new Set(codes)] as UsState[]);

const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: postgresUrl.optional(),
  PGLITE_DIR: z.string().trim().min(1).default("./data/pglite"),
  PORT: z
    .string()
    .trim()
    .regex(/^\d{1,5}$/, { message: "must be a port number from 1 to 65535" })
    .transform(Number)
    .refine((port) => port >= 1 && port <= 65_535, { message: "must be a port number from 1 to 65535" })
    .default(3000),
  /** The interface to listen on; unset: every interface. */
  HOST: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9.:[\]-]+$/, { message: "must be a host name or an IP address, such as 127.0.0.1" })
    .optional(),
  /** How long requests in flight get after SIGTERM; container runtimes wait 10 s before SIGKILL. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().positive({ message: "must be a positive number of milliseconds" }).default(8_000),
  SESSION_SECRET: z.string().trim().min(32, { message: "must be at least 32 characters long" }).optional(),
  PUBLIC_BASE_URL: httpUrl.optional(),
  SECURE_COOKIES: z.enum(["auto", "always", "never"]).default("auto"),
  /**
   * How many reverse proxies in front of the store append to X-Forwarded-For
   * (and set X-Forwarded-Proto). 0: the client is the socket's peer and those
   * headers are ignored; N: the client is the Nth address from the right.
   */
  TRUSTED_PROXIES: z
    .string()
    .trim()
    .regex(/^\d{1,2}$/, { message: "must be a whole number of proxies, 0 or more" })
    .transform(Number)
    .default(0),
  /**
   * How long a client may take to send a request's headers, and the whole
   * request, before Node answers 408 and closes the connection (a connection
   * left half-open to hold a place is closed after the first). The keep-alive
   * timeout closes an idle connection between requests; a proxy in front
   * must close its own idle upstream connections sooner (deploy/Caddyfile: 3 s).
   */
  HEADERS_TIMEOUT_MS: milliseconds.default(10_000),
  REQUEST_TIMEOUT_MS: milliseconds.default(30_000),
  KEEP_ALIVE_TIMEOUT_MS: milliseconds.default(5_000),
  /** Open connections one process keeps at most; more are closed as they arrive. */
  MAX_CONNECTIONS: count.refine((value) => value >= 1, { message: "must be 1 or more" }).default(10_000),
  /**
   * Open connections per client address (IPv6: per /64); more from the same
   * address are closed as they arrive. Unset: 256 when the store faces clients
   * itself (TRUSTED_PROXIES=0), none behind a proxy, whose own address every
   * connection comes from. 0 turns the cap off.
   */
  MAX_CONNECTIONS_PER_ADDRESS: count.optional(),
  /**
   * Request bodies still arriving that one process takes at once, in all and
   * per client address (IPv6: per /64); past either, 503 with Retry-After.
   * Each holds about 36 KB of heap until it has arrived (server/body-budget.ts).
   */
  MAX_BODIES_IN_FLIGHT: count.refine((value) => value >= 1, { message: "must be 1 or more" }).default(1_000),
  MAX_BODIES_IN_FLIGHT_PER_ADDRESS: count.refine((value) => value >= 1, { message: "must be 1 or more" }).default(32),
  /** After BODY_GRACE_MS, a request body must have arrived at this many bytes a second on average, or it gets 408. */
  MIN_BODY_BYTES_PER_SECOND: count.default(240),
  BODY_GRACE_MS: milliseconds.default(5_000),
  /**
   * Where the process serves its Prometheus metrics (server/metrics-server.ts): a port of their own, never
   * the store's. "off" serves none. The host defaults to 127.0.0.1, so only the machine itself (or a
   * container's own network namespace) can read them; a Prometheus elsewhere needs METRICS_HOST=0.0.0.0
   * on a private network.
   */
  METRICS_PORT: z
    .string()
    .trim()
    .regex(/^(\d{1,5}|off)$/, { message: 'must be a port number from 1 to 65535, or "off"' })
    .transform((value) => (value === "off" ? null : Number(value)))
    .refine((port) => port === null || (port >= 1 && port <= 65_535), { message: 'must be a port number from 1 to 65535, or "off"' })
    .default(9464),
  METRICS_HOST: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9.:[\]-]+$/, { message: "must be a host name or an IP address, such as 127.0.0.1" })
    .default("127.0.0.1"),
  /** Multiplies every per-address rate limit: 1 in production; more where all traffic comes from one address (end-to-end and load tests). */
  RATE_LIMIT_SCALE: z.coerce.number().positive().max(10_000).default(1),

  STORE_NAME: z.string().trim().min(1).default("Outdoor Kitchen Outlet"),
  STORE_PHONE: z
    .string()
    .trim()
    .refine((value) => value.replace(/\D/g, "").length === 10, {
      message: "must hold a 10-digit US phone number",
    })
    .default("(877) 555-0142"),
  STORE_EMAIL: z.email({ message: "must be an email address" }).default("sales@example.com"),

  /** "auto": the offline test payment page is on only while no real provider is configured. */
  PAYMENTS_TEST_MODE: z.enum(["auto", "on", "off"]).default("auto"),
  STRIPE_SECRET_KEY: optional,
  STRIPE_PUBLISHABLE_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_BASE: httpUrl.optional(),
  STRIPE_JS_URL: httpUrl.optional(),
  PAYPAL_CLIENT_ID: optional,
  PAYPAL_CLIENT_SECRET: optional,
  PAYPAL_ENVIRONMENT: environment.default("sandbox"),
  PAYPAL_API_BASE: httpUrl.optional(),
  PAYPAL_SDK_BASE: httpUrl.optional(),
  /** The id PayPal gave the store's webhook (developer dashboard): PayPal verifies each event's signature against it. */
  PAYPAL_WEBHOOK_ID: optional,
  AFFIRM_PUBLIC_API_KEY: optional,
  AFFIRM_PRIVATE_API_KEY: optional,
  AFFIRM_ENVIRONMENT: environment.default("sandbox"),
  AFFIRM_API_BASE: httpUrl.optional(),
  AFFIRM_JS_URL: httpUrl.optional(),
  AUTHORIZE_NET_API_LOGIN_ID: optional,
  AUTHORIZE_NET_TRANSACTION_KEY: optional,
  AUTHORIZE_NET_ENVIRONMENT: environment.default("sandbox"),
  AUTHORIZE_NET_API_BASE: httpUrl.optional(),
  AUTHORIZE_NET_HOSTED_URL: httpUrl.optional(),
  /** The merchant's Signature Key (hex), which signs Authorize.Net's webhook notifications (X-ANET-Signature). */
  AUTHORIZE_NET_SIGNATURE_KEY: optional,

  /** The units on hand a product is given when it first appears in the catalogue (tracked; the made-to-order brand has none). */
  STOCK_DEFAULT_ON_HAND: count.default(50),

  /** Who calculates sales tax: "offline", the store's own table of state and average local rates, or "stripe", Stripe Tax with STRIPE_SECRET_KEY. */
  TAX_PROVIDER: z.enum(["offline", "stripe"]).default("offline"),
  /** Where the offline table charges sales tax (the merchant's registrations); Stripe Tax reads the registrations made in Stripe. */
  TAX_REGISTERED_STATES: stateList.default([...DEMO_TAX_STATES]),
  /** Stripe Tax's API host; unset: STRIPE_API_BASE, else Stripe's own. The tests point it at a local fake. */
  STRIPE_TAX_API_BASE: httpUrl.optional(),

  EASYPOST_API_KEY: optional,
  /** EasyPost's API host (rates and trackers); unset: https://api.easypost.com. The tests point it at a local fake. */
  EASYPOST_API_BASE: httpUrl.optional(),
  /** The secret of the store's EasyPost webhook: it signs each tracker event (X-Hmac-Signature). */
  EASYPOST_WEBHOOK_SECRET: optional,
  POSTMARK_SERVER_TOKEN: optional,
  EMAIL_FROM: z.email({ message: "must be an email address" }).optional(),
  OPENAI_API_KEY: optional,
  OPENAI_MODEL: z.string().trim().min(1).default("gpt-4o-mini"),
  OPENAI_BASE_URL: httpUrl.optional(),
  GOOGLE_MAPS_API_KEY: optional,

  /**
   * A folder of product photos, `{brand}/{Id}/{n}.jpg` (or .jpeg, .png, .webp, .avif, .tif): a product with
   * photos shows them, resized to AVIF and WebP on first request, instead of its drawings (ADR 016).
   * Read at start-up. Unset: every product shows its drawings.
   */
  PRODUCT_PHOTOS_DIR: z.string().trim().min(1).optional(),
  /** Where the resized photos are kept; any file in it may be deleted at any time. */
  PRODUCT_PHOTOS_CACHE_DIR: z.string().trim().min(1).default("./data/photo-cache"),

  /** Password of the demo staff account the embedded start creates (tests); random when unset. */
  STAFF_DEMO_PASSWORD: z.string().min(12, { message: "must be at least 12 characters long" }).max(256).optional(),
});

/** Every key the store reads (documented one by one in .env.example). */
export const CONFIG_KEYS = Object.keys(configSchema.shape) as ReadonlyArray<keyof typeof configSchema.shape>;

/** Keys that only make sense together: setting one without the other is a mistake. */
const PAIRED_KEYS: ReadonlyArray<readonly [string, string]> = [
  ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY"],
  ["PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET"],
  ["AFFIRM_PUBLIC_API_KEY", "AFFIRM_PRIVATE_API_KEY"],
  ["AUTHORIZE_NET_API_LOGIN_ID", "AUTHORIZE_NET_TRANSACTION_KEY"],
];

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  constructor(
    readonly key: string,
    problem: string,
  ) {
    super(`Configuration error: ${key} ${problem}.`);
    this.name = "ConfigError";
  }
}

/** Parses an environment; throws a ConfigError naming the first bad key. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ""));
  const result = configSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const key = String(issue.path[0] ?? "environment");
    const problem = issue.code === "invalid_type" ? "is missing or malformed" : issue.message;
    throw new ConfigError(key, problem);
  }
  for (const [first, second] of PAIRED_KEYS) {
    const hasFirst = first in input;
    const hasSecond = second in input;
    if (hasFirst !== hasSecond) {
      const missing = hasFirst ? second : first;
      throw new ConfigError(missing, `must be set together with ${hasFirst ? first : second}`);
    }
  }
  if (result.data.TAX_PROVIDER === "stripe" && !result.data.STRIPE_SECRET_KEY) {
    throw new ConfigError("TAX_PROVIDER", "is stripe, which needs STRIPE_SECRET_KEY");
  }
  if (result.data.HEADERS_TIMEOUT_MS > result.data.REQUEST_TIMEOUT_MS) {
    throw new ConfigError("HEADERS_TIMEOUT_MS", "must not be longer than REQUEST_TIMEOUT_MS");
  }
  return result.data;
}

let cached: Config | undefined;

/** The process's configuration, read from `.env` (when present) and the environment once. */
export function getConfig(): Config {
  if (!cached) {
    if (existsSync(".env")) process.loadEnvFile(".env");
    cached = parseConfig(process.env);
  }
  return cached;
}

/**
 * The store's public address, for every absolute URL it hands out (payment
 * return pages, emails, canonical links, the sitemap). Never a request's Host.
 */
export function publicBaseUrl(config: Config): string {
  return (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
}

function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
