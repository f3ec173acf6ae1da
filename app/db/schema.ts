import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
// Relative, not "~/": drizzle-kit reads this file without the app's path alias.
import { ORDER_STATUSES, type OrderStatus } from "../orders/status";
import { STAFF_ROLES, type StaffRole } from "../staff/roles";
import type { CustomerDetails } from "~/orders/customer";
import type { RecordedTax } from "~/tax/recorded-tax";

/**
 * One schema for PGlite and PostgreSQL. Money is integer cents with a
 * non-negative check; statuses are limited by checks, not only by code.
 */

/** Money is bigint cents (a JavaScript number: exact up to $90 trillion), so no total can overflow a 32-bit column. */
const money = (name: string) => bigint(name, { mode: "number" });

export { ORDER_STATUSES, type OrderStatus };

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

export type SpecificationEntry = Record<string, string>;

export const products = pgTable(
  "products",
  {
    /** `{brand}-{Id}`, the key used in URLs and stored descriptions. */
    key: text("key").primaryKey(),
    sourceId: text("source_id").notNull(),
    brand: text("brand").notNull(),
    model: text("model").notNull(),
    title: text("title").notNull(),
    priceCents: money("price_cents").notNull(),
    image: text("image").notNull(),
    otherImages: jsonb("other_images").$type<string[]>().notNull(),
    categories: text("categories").array().notNull(),
    specifications: jsonb("specifications").$type<SpecificationEntry[]>().notNull(),
    description: text("description").notNull(),
    imageCount: integer("image_count").notNull(),
    /** Typed values of the specifications the buying guides use (app/catalog/spec-values.ts), filled at load. */
    specValues: jsonb("spec_values").$type<Record<string, number | string | boolean>>().notNull().default({}),
    /** What the product card shows under the title, never clipped: colour, fuel, size, stand (app/catalog/card-facts.server.ts), filled at load. */
    facts: text("facts")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Catalog order (brand file order), so lists are stable between requests. */
    position: integer("position").notNull(),
    /**
     * The title's words for search ranking (catalog/search.ts): lower case, everything but letters and
     * digits turned into one space, a space at each end, so `like '% grill cover %'` finds whole words.
     * Kept by the database from the title, never written by the app.
     */
    titleWords: text("title_words")
      .notNull()
      .generatedAlwaysAs(sql`' ' || lower(regexp_replace(title, '[^[:alnum:]]+', ' ', 'g')) || ' '`),
    /** The merchant's own "compare at" price, struck through beside the price (catalogue desk, app/catalog/desk). */
    compareAtCents: money("compare_at_cents"),
    /** A sale: this price between `sale_starts_at` (inclusive) and `sale_ends_at` (exclusive, none: until changed). */
    salePriceCents: money("sale_price_cents"),
    saleStartsAt: timestamp("sale_starts_at", { withTimezone: true }),
    saleEndsAt: timestamp("sale_ends_at", { withTimezone: true }),
    /** Hidden products answer 404 and leave every list, search, the sitemap and the chat; orders keep their lines. */
    published: boolean("published").notNull().default(true),
    /** The returns policy's flags as the merchant sets them, besides the catalogue's own rules (app/returns/product-facts.ts). */
    nonReturnable: boolean("non_returnable").notNull().default(false),
    customMade: boolean("custom_made").notNull().default(false),
    madeToOrder: boolean("made_to_order").notNull().default(false),
    /** The fields changed on the catalogue desk: a catalogue reload keeps the desk's value of each (app/catalog/load.server.ts). */
    deskFields: text("desk_fields")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Counts the desk's changes: a form made from an older version is refused rather than overwriting a newer change. */
    deskVersion: integer("desk_version").notNull().default(0),
  },
  (table) => [
    uniqueIndex("products_source_id_key").on(table.sourceId),
    index("products_brand_position_idx").on(table.brand, table.position),
    index("products_position_idx").on(table.position),
    index("products_categories_idx").using("gin", table.categories),
    index("products_title_trgm_idx").using("gin", table.title.op("gin_trgm_ops")),
    // A search that is a model number finds its product at once (catalog/queries.server.ts).
    index("products_model_lower_idx").on(sql`lower(${table.model})`),
    // /fit asks for cutout widths in a range (guides/fit.server.ts): on 100,000 products a scan of every row's JSON otherwise.
    index("products_cutout_width_idx").on(sql`((${table.specValues} ->> 'cutoutWidth')::numeric)`),
    check("products_price_positive", sql`${table.priceCents} > 0`),
    check("products_desk_prices_positive", sql`coalesce(${table.compareAtCents}, 1) > 0 and coalesce(${table.salePriceCents}, 1) > 0`),
    check(
      "products_sale_ends_after_start",
      sql`${table.saleEndsAt} is null or ${table.saleStartsAt} is null or ${table.saleEndsAt} > ${table.saleStartsAt}`,
    ),
    check("products_image_count_positive", sql`${table.imageCount} > 0`),
  ],
);

/** Descriptions reformatted by the text generator, stored so each is generated once. */
export const productDescriptions = pgTable("product_descriptions", {
  productKey: text("product_key").primaryKey(),
  description: text("description").notNull(),
  createdAt: createdAt(),
});

/** The checkout's customer as an order keeps it: the form's fields, the full name and the country. */
export type OrderCustomer = CustomerDetails & {
  name: string;
  country: string;
};

export type OrderItem = {
  productKey: string;
  title: string;
  model: string;
  brand: string;
  imageUrl: string;
  unitPriceCents: number;
  quantity: number;
  /** The line's sales tax (orders and checkouts priced with tax; absent on older ones). */
  taxCents?: number;
};

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The display id shoppers see and type into order lookup. */
    orderId: text("order_id").notNull(),
    customer: jsonb("customer").$type<OrderCustomer>().notNull(),
    items: jsonb("items").$type<OrderItem[]>().notNull(),
    subtotalCents: money("subtotal_cents").notNull(),
    shippingCents: money("shipping_cents").notNull(),
    discountCents: money("discount_cents").notNull().default(0),
    /** The sales tax charged, part of the total (0 on orders from before tax, whose `tax` is null). */
    taxCents: money("tax_cents").notNull().default(0),
    /** How the tax was calculated: provider, calculation, state, lines and jurisdictions (tax/recorded-tax.ts). */
    tax: jsonb("tax").$type<RecordedTax>(),
    totalCents: money("total_cents").notNull(),
    paymentMethod: text("payment_method").notNull(),
    /** The provider's id of the verified payment: one order per payment. */
    paymentReference: text("payment_reference").notNull(),
    /** Who took the money; "test" is the offline test page, where no money moved. */
    paymentProvider: text("payment_provider").notNull(),
    /** The pending checkout this order was paid for: one order per checkout. */
    checkoutToken: text("checkout_token"),
    status: text("status").$type<OrderStatus>().notNull().default("Approved"),
    /** Set with Shipped: who carries the parcel and its tracking number (app/orders/shipping.ts names the carriers). */
    carrier: text("carrier"),
    trackingNumber: text("tracking_number"),
    shippedAt: timestamp("shipped_at", { withTimezone: true }),
    /** From the carrier (EasyPost's tracker), or recorded by staff: the Return Policy's windows count from it. */
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /** EasyPost's tracker of the shipment, when EasyPost follows it. */
    trackerId: text("tracker_id"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("orders_order_id_key").on(table.orderId),
    uniqueIndex("orders_tracker_id_key").on(table.trackerId),
    uniqueIndex("orders_payment_reference_key").on(table.paymentReference),
    uniqueIndex("orders_checkout_token_key").on(table.checkoutToken),
    index("orders_created_at_idx").on(table.createdAt),
    index("orders_status_idx").on(table.status),
    check("orders_status_valid", sql`${table.status} in (${inList(ORDER_STATUSES)})`),
    check(
      "orders_money_non_negative",
      sql`${table.subtotalCents} >= 0 and ${table.shippingCents} >= 0 and ${table.discountCents} >= 0 and ${table.totalCents} >= 0`,
    ),
    check("orders_tax_non_negative", sql`${table.taxCents} >= 0`),
  ],
);

export const SUBSCRIPTION_STATUSES = ["pending", "confirmed", "unsubscribed"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * Newsletter addresses (double opt-in): a sign-up is `pending` until its
 * owner opens the signed confirmation link; only `confirmed` addresses get
 * newsletter mail. Rows from before double opt-in become `pending`.
 */
export const mailingList = pgTable(
  "mailing_list",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    createdAt: createdAt(),
    status: text("status").$type<SubscriptionStatus>().notNull().default("pending"),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    /** When the last confirmation email was asked for, so a repeated sign-up does not mail the owner again and again. */
    confirmationSentAt: timestamp("confirmation_sent_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("mailing_list_email_key").on(sql`lower(${table.email})`),
    check("mailing_list_status_valid", sql`${table.status} in (${inList(SUBSCRIPTION_STATUSES)})`),
  ],
);

export const staffUsers = pgTable(
  "staff_users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    /** What the account may do (app/staff/roles.ts): only an owner changes prices, imports the catalogue, refunds and manages accounts. */
    role: text("role").$type<StaffRole>().notNull().default("staff"),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("staff_users_email_key").on(table.email),
    check("staff_users_role_valid", sql`${table.role} in (${inList(STAFF_ROLES)})`),
    check("staff_users_email_lowercase", sql`${table.email} = lower(${table.email})`),
  ],
);

export const contactMessages = pgTable("contact_messages", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  phone: text("phone").notNull(),
  message: text("message").notNull(),
  createdAt: createdAt(),
});

/** Every email the offline stand-in "sends" lands here, readable at /dev/outbox. */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    toAddress: text("to_address").notNull(),
    fromAddress: text("from_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    tag: text("tag"),
    createdAt: createdAt(),
    /** Extra headers the message carried (List-Unsubscribe and friends), shown on /dev/outbox. */
    headers: jsonb("headers").$type<Record<string, string>>(),
  },
  (table) => [index("email_outbox_created_at_idx").on(table.createdAt)],
);

/** Small key-value facts the store keeps about itself (catalog hash, generated secrets). */
export const storeSettings = pgTable("store_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const CHECKOUT_KINDS = ["cart", "single", "seasoning"] as const;
export type CheckoutKind = (typeof CHECKOUT_KINDS)[number];
export const CHECKOUT_STATUSES = ["pending", "paid"] as const;

/**
 * A checkout a shopper submitted: who, what and how much, all computed on the
 * server. It becomes an order only once its payment is verified.
 */
export const checkouts = pgTable(
  "checkouts",
  {
    /** Random and unguessable: it travels in payment URLs. */
    token: text("token").primaryKey(),
    kind: text("kind").$type<CheckoutKind>().notNull(),
    customer: jsonb("customer").$type<OrderCustomer>().notNull(),
    items: jsonb("items").$type<OrderItem[]>().notNull(),
    subtotalCents: money("subtotal_cents").notNull(),
    shippingCents: money("shipping_cents").notNull(),
    discountCents: money("discount_cents").notNull().default(0),
    /** The sales tax of `tax`'s calculation, part of the total; a checkout without `tax` is priced again before payment. */
    taxCents: money("tax_cents").notNull().default(0),
    tax: jsonb("tax").$type<RecordedTax>(),
    totalCents: money("total_cents").notNull(),
    promoCode: text("promo_code"),
    status: text("status").$type<(typeof CHECKOUT_STATUSES)[number]>().notNull().default("pending"),
    orderId: text("order_id"),
    /**
     * The attempt allowed to take this checkout's money right now (PayPal's capture, Affirm's authorization),
     * until `collecting_until`: of two payments of one checkout, only one is taken (payments/collection.server.ts).
     */
    collectingAttemptId: text("collecting_attempt_id"),
    collectingUntil: timestamp("collecting_until", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    // The clean-up of abandoned checkouts looks for old pending ones (app/checkout/abandoned-checkouts.server.ts).
    index("checkouts_pending_created_idx")
      .on(table.createdAt)
      .where(sql`${table.status} = 'pending'`),
    check("checkouts_kind_valid", sql`${table.kind} in (${inList(CHECKOUT_KINDS)})`),
    check("checkouts_status_valid", sql`${table.status} in (${inList(CHECKOUT_STATUSES)})`),
    check(
      "checkouts_money_non_negative",
      sql`${table.subtotalCents} >= 0 and ${table.shippingCents} >= 0 and ${table.discountCents} >= 0 and ${table.totalCents} >= 0`,
    ),
    check("checkouts_tax_non_negative", sql`${table.taxCents} >= 0`),
  ],
);

export const TEST_PAYMENT_STATUSES = ["pending", "approved", "declined"] as const;
export type TestPaymentStatus = (typeof TEST_PAYMENT_STATUSES)[number];

/** Payments made on the offline test payment page (the payment stand-in). */
export const testPayments = pgTable(
  "test_payments",
  {
    id: text("id").primaryKey(),
    checkoutToken: text("checkout_token").notNull(),
    method: text("method").notNull(),
    amountCents: money("amount_cents").notNull(),
    status: text("status").$type<TestPaymentStatus>().notNull().default("pending"),
    message: text("message"),
    createdAt: createdAt(),
  },
  (table) => [
    index("test_payments_checkout_idx").on(table.checkoutToken),
    check("test_payments_status_valid", sql`${table.status} in (${inList(TEST_PAYMENT_STATUSES)})`),
    check("test_payments_amount_non_negative", sql`${table.amountCents} >= 0`),
  ],
);

/**
 * Staff dashboard. Every status change a staff member makes, kept
 * for the audit trail shown in the order panel.
 *
 * The dashboard's indexes on `orders` live in the staff_dashboard migration
 * (drizzle/0003_staff_dashboard.sql), written by hand because this file only
 * grows at its end: trigram GIN indexes on customer->>'name' and
 * customer->>'email' for the ILIKE search, and a text_pattern_ops index on
 * order_id for the order id prefix search. The list (orders with a name,
 * newest first) uses orders_created_at_idx and stops after one page.
 */
export const orderStatusChanges = pgTable(
  "order_status_changes",
  {
    id: serial("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.orderId),
    staffEmail: text("staff_email").notNull(),
    fromStatus: text("from_status").$type<OrderStatus>().notNull(),
    toStatus: text("to_status").$type<OrderStatus>().notNull(),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("order_status_changes_order_idx").on(table.orderId, table.changedAt),
    check("order_status_changes_from_valid", sql`${table.fromStatus} in (${inList(ORDER_STATUSES)})`),
    check("order_status_changes_to_valid", sql`${table.toStatus} in (${inList(ORDER_STATUSES)})`),
  ],
);

/**
 * Sign-in attempts that have not (yet) succeeded, one row per key and
 * attempt: `email:{address}` and `ip:{client address}`. Counted over a
 * sliding window to slow and then refuse repeated failures.
 */
export const staffLoginAttempts = pgTable(
  "staff_login_attempts",
  {
    id: serial("id").primaryKey(),
    key: text("key").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("staff_login_attempts_key_idx").on(table.key, table.attemptedAt)],
);

/** `abandoned`: the shopper cancelled, or the provider still had no payment when the reconciler gave up asking. */
export const PAYMENT_ATTEMPT_STATUSES = ["started", "approved", "declined", "abandoned"] as const;
export type PaymentAttemptStatus = (typeof PAYMENT_ATTEMPT_STATUSES)[number];

/**
 * Every payment the server started, bound to the pending checkout, method and
 * amount it was created for. A provider's answer counts only for the attempt
 * that carries its reference, so a payment made for one checkout can never pay
 * for another.
 */
export const paymentAttempts = pgTable(
  "payment_attempts",
  {
    /** Our id: the idempotency key and the metadata sent to the provider. */
    id: text("id").primaryKey(),
    checkoutToken: text("checkout_token").notNull(),
    method: text("method").notNull(),
    provider: text("provider").notNull(),
    /** The provider's id for this payment, once it has one. */
    reference: text("reference"),
    /**
     * The provider's id of the money itself, once approved: the id an order records as its payment
     * reference. The same as `reference` except for Affirm, whose transaction id differs from its checkout token.
     */
    paymentId: text("payment_id"),
    amountCents: money("amount_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    status: text("status").$type<PaymentAttemptStatus>().notNull().default("started"),
    message: text("message"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the reconciler next asks the provider about an unfinished attempt (also its lease while it asks). */
    nextCheckAt: timestamp("next_check_at", { withTimezone: true }),
    /** How often the reconciler has asked. */
    checks: integer("checks").notNull().default(0),
    /** A staff refund of this payment: the provider's refund id once it went through. */
    refundReference: text("refund_reference"),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    /** Why the store itself gives this payment back: "duplicate" (the checkout was already paid) or "discount-taken". */
    refundReason: text("refund_reason"),
    /** A refund under way (one at a time per payment): set before the provider is asked, cleared if it fails. */
    refundStartedAt: timestamp("refund_started_at", { withTimezone: true }),
    /** When an authorized-only payment (Affirm) was captured: when its order shipped. */
    capturedAt: timestamp("captured_at", { withTimezone: true }),
    /** When the provider stops honouring an authorized-only payment's capture (Affirm: 30 days). */
    authorizationExpiresAt: timestamp("authorization_expires_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("payment_attempts_provider_reference_key").on(table.provider, table.reference),
    index("payment_attempts_next_check_idx")
      .on(table.nextCheckAt)
      .where(sql`${table.status} = 'started'`),
    index("payment_attempts_checkout_idx").on(table.checkoutToken),
    check("payment_attempts_status_valid", sql`${table.status} in (${inList(PAYMENT_ATTEMPT_STATUSES)})`),
    check("payment_attempts_amount_positive", sql`${table.amountCents} > 0`),
  ],
);

export const EMAIL_DELIVERY_STATUSES = ["pending", "sent", "failed"] as const;
export type EmailDeliveryStatus = (typeof EMAIL_DELIVERY_STATUSES)[number];

/**
 * The delivery queue (the outbox pattern): every email the store sends is
 * written here first, then sent. A send that fails stays `pending` with its
 * attempt count, last error and next attempt time, and the retry loop sends it
 * again with a growing delay until it goes out or `failed` (too many
 * attempts). A claim pushes `next_attempt_at` forward (a lease), so one row is
 * sent by one server process at a time. Bodies are cleared once sent.
 */
export const emailDeliveries = pgTable(
  "email_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** What the email is about, e.g. `order-confirmation:{orderId}`: one email per reference. */
    reference: text("reference"),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    tag: text("tag"),
    replyTo: text("reply_to"),
    headers: jsonb("headers").$type<Record<string, string>>(),
    status: text("status").$type<EmailDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    messageId: text("message_id"),
    /** The request that queued the email (server/request-log.ts), for following it from the page to the provider. */
    requestId: text("request_id"),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("email_deliveries_reference_key").on(table.reference),
    index("email_deliveries_due_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    check("email_deliveries_status_valid", sql`${table.status} in (${inList(EMAIL_DELIVERY_STATUSES)})`),
    check("email_deliveries_attempts_non_negative", sql`${table.attempts} >= 0`),
  ],
);

/**
 * Rate limits shared by every server process (app/security/rate-limit.server.ts):
 * one counter per rule and subject, holding its current window (which started
 * at the subject's first hit), incremented atomically with
 * `insert ... on conflict (key) do update`. Rows whose window has ended are pruned.
 */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    /** `{rule}:{subject}`, e.g. `contact:203.0.113.9`. */
    key: text("key").primaryKey(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    windowEnd: timestamp("window_end", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull(),
  },
  (table) => [index("rate_limit_counters_window_end_idx").on(table.windowEnd)],
);

/**
 * Staff sessions recorded on the server. The cookie carries only a random
 * 32-byte token; the row's id is its SHA-256, so a database dump holds no
 * usable session. Sign-out, a password change and `npm run staff:revoke`
 * set `revoked_at`; the guard refuses revoked and idle rows.
 */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    /** Hex SHA-256 of the cookie's token. */
    id: text("id").primaryKey(),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    /** The CSRF token every staff form of this session carries back. */
    csrfToken: text("csrf_token").notNull(),
    /** A one-time status message for the next dashboard page. */
    flash: jsonb("flash").$type<{ kind: "success" | "error"; message: string }>(),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [index("staff_sessions_staff_idx").on(table.staffId), index("staff_sessions_last_seen_idx").on(table.lastSeenAt)],
);

/**
 * LOVERUB10 is for a customer's first purchase: one row per code and customer email (lower-cased),
 * written in the transaction that records the order, so the database itself refuses a second use.
 */
export const promoRedemptions = pgTable(
  "promo_redemptions",
  {
    code: text("code").notNull(),
    email: text("email").notNull(),
    orderId: text("order_id").notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("promo_redemptions_code_email_key").on(table.code, table.email)],
);

/**
 * LOVERUB10 held for a normalised customer email (lower case, trimmed, `+tag` removed) by the checkout
 * about to pay with it, written before the payment starts: the unique index lets one checkout at a time
 * hold it, across processes. Released when that checkout's payments are declined or abandoned; kept once paid.
 */
export const promoReservations = pgTable(
  "promo_reservations",
  {
    code: text("code").notNull(),
    email: text("email").notNull(),
    checkoutToken: text("checkout_token").notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("promo_reservations_code_email_key").on(table.code, table.email)],
);

/** What staff did about a payment (refunds), with the provider's answer: the money's audit trail. */
export const paymentAuditEntries = pgTable(
  "payment_audit_entries",
  {
    id: serial("id").primaryKey(),
    attemptId: text("attempt_id")
      .notNull()
      .references(() => paymentAttempts.id),
    staffEmail: text("staff_email").notNull(),
    action: text("action").notNull(),
    outcome: text("outcome").notNull(),
    detail: text("detail"),
    createdAt: createdAt(),
  },
  (table) => [index("payment_audit_entries_attempt_idx").on(table.attemptId, table.createdAt)],
);

/** Binary data (a return's photos): Buffer from postgres.js, Uint8Array from PGlite; Buffer either way here. */
const bytes = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const AFTER_SALE_KINDS = ["return", "defect"] as const;
export type AfterSaleKind = (typeof AFTER_SALE_KINDS)[number];
/** A return: requested, then approved (authorization and label sent) or declined; received, then refunded. A defect claim: requested, then approved or declined. */
export const AFTER_SALE_STATUSES = ["requested", "approved", "declined", "received", "refunded"] as const;
export type AfterSaleStatus = (typeof AFTER_SALE_STATUSES)[number];
/** The statuses in which a request still holds its lines: one open request per line. */
export const OPEN_AFTER_SALE_STATUSES = ["requested", "approved", "received"] as const satisfies readonly AfterSaleStatus[];
export const RETURN_REASONS = ["Changed my mind", "Arrived damaged", "Wrong item", "Defective"] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

/**
 * After the sale (issue 41): a customer's return request or defect claim on one order, and what
 * staff did with it. The refund of a received return is claimed with `refund_started_at` before the
 * provider is asked, so one click is one refund on any number of processes.
 */
export const afterSaleRequests = pgTable(
  "after_sale_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** What the customer and staff call it, e.g. "R-7K3P9Q" (returns) or "D-4M2X8B" (defect claims). */
    number: text("number").notNull(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.orderId),
    kind: text("kind").$type<AfterSaleKind>().notNull(),
    status: text("status").$type<AfterSaleStatus>().notNull().default("requested"),
    reason: text("reason").$type<ReturnReason>().notNull(),
    note: text("note").notNull().default(""),
    /** Defect claims: the product's serial number and a link to a video, if any. */
    serialNumber: text("serial_number"),
    videoUrl: text("video_url"),
    /** Set on approval of a return: the return authorization, and EasyPost's label (else printable instructions). */
    authorizationNumber: text("authorization_number"),
    labelUrl: text("label_url"),
    /** What EasyPost's return label cost the store, deducted from the refund; null while none was bought. */
    labelCostCents: money("label_cost_cents"),
    declineReason: text("decline_reason"),
    /** The refund of a received return: claimed, then done, once. */
    refundCents: money("refund_cents"),
    refundReference: text("refund_reference"),
    refundStartedAt: timestamp("refund_started_at", { withTimezone: true }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    receivedAt: timestamp("received_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("after_sale_requests_number_key").on(table.number),
    uniqueIndex("after_sale_requests_authorization_key").on(table.authorizationNumber),
    index("after_sale_requests_order_idx").on(table.orderId),
    index("after_sale_requests_status_created_idx").on(table.status, table.createdAt),
    check("after_sale_requests_kind_valid", sql`${table.kind} in (${inList(AFTER_SALE_KINDS)})`),
    check("after_sale_requests_status_valid", sql`${table.status} in (${inList(AFTER_SALE_STATUSES)})`),
    check("after_sale_requests_reason_valid", sql`${table.reason} in (${inList(RETURN_REASONS)})`),
    check("after_sale_requests_refund_non_negative", sql`${table.refundCents} is null or ${table.refundCents} >= 0`),
    check("after_sale_requests_label_cost_non_negative", sql`${table.labelCostCents} is null or ${table.labelCostCents} >= 0`),
  ],
);

/** The order lines (index into the order's items) and quantities a request covers. */
export const afterSaleLines = pgTable(
  "after_sale_lines",
  {
    requestId: uuid("request_id")
      .notNull()
      .references(() => afterSaleRequests.id, { onDelete: "cascade" }),
    /** Repeated from the request, so "one open request per line" is one indexed lookup. */
    orderId: text("order_id").notNull(),
    lineIndex: integer("line_index").notNull(),
    productKey: text("product_key").notNull(),
    quantity: integer("quantity").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.requestId, table.lineIndex] }),
    index("after_sale_lines_order_line_idx").on(table.orderId, table.lineIndex),
    check("after_sale_lines_quantity_positive", sql`${table.quantity} > 0 and ${table.lineIndex} >= 0`),
  ],
);

/** A request's photos, re-encoded (JPEG, metadata stripped) and kept out of the public files: only staff see them. */
export const afterSalePhotos = pgTable(
  "after_sale_photos",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => afterSaleRequests.id, { onDelete: "cascade" }),
    contentType: text("content_type").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    data: bytes("data").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("after_sale_photos_request_idx").on(table.requestId)],
);

/** Every step of a request (requested, approved, declined, received, refund asked, refunded, refused), by whom: its audit trail. */
export const afterSaleEvents = pgTable(
  "after_sale_events",
  {
    id: serial("id").primaryKey(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => afterSaleRequests.id, { onDelete: "cascade" }),
    /** A staff member's email, "customer", or "store (automatic)". */
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    detail: text("detail"),
    createdAt: createdAt(),
  },
  (table) => [index("after_sale_events_request_idx").on(table.requestId, table.createdAt)],
);

export const TAX_TRANSACTION_KINDS = ["commit", "reversal"] as const;
export type TaxTransactionKind = (typeof TAX_TRANSACTION_KINDS)[number];
/** `pending` until the provider has it; `failed` once retries ran out (staff see it and may retry). */
export const TAX_TRANSACTION_STATUSES = ["pending", "recorded", "failed"] as const;
export type TaxTransactionStatus = (typeof TAX_TRANSACTION_STATUSES)[number];

/** What a tax transaction moves, per order line (index into the order's items) and for shipping, in positive cents. */
export type TaxTransactionLine = { lineIndex: number; reference: string; quantity: number; amountCents: number; taxCents: number };

/**
 * Sales tax (issue 48): each order's tax transaction at the provider (its commit, written in the
 * transaction that records the order) and each reversal (written with the refund it follows), sent to the
 * provider by the `tax.record` job, once: `source` names what caused the row (the order, a refund, a
 * return), so one refund is one reversal however often it is posted, and the provider's idempotency key is
 * the row's id. The tax report sums these rows' `tax_cents`.
 */
export const taxTransactions = pgTable(
  "tax_transactions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.orderId),
    kind: text("kind").$type<TaxTransactionKind>().notNull(),
    /** `order:{orderId}`, `refund:{attemptId}`, `return:{requestId}`, `cancel:{orderId}`: one row per cause. */
    source: text("source").notNull(),
    /** The provider's reference: the Order ID for the commit, `{orderId}-refund-{n}` for a reversal; unique there too. */
    reference: text("reference").notNull(),
    /** Reversals: the whole transaction, or exactly `lines` and the shipping below. */
    mode: text("mode").$type<"full" | "partial">(),
    provider: text("provider").$type<"stripe" | "offline">().notNull(),
    /** The order's state, for the report. */
    state: text("state").notNull(),
    /** Tax moved, positive: collected for a commit, given back for a reversal. */
    taxCents: money("tax_cents").notNull(),
    /** The taxable amount moved, lines and shipping together. */
    amountCents: money("amount_cents").notNull(),
    lines: jsonb("lines").$type<TaxTransactionLine[]>().notNull(),
    shippingCents: money("shipping_cents").notNull().default(0),
    shippingTaxCents: money("shipping_tax_cents").notNull().default(0),
    status: text("status").$type<TaxTransactionStatus>().notNull().default("pending"),
    /** The provider's transaction id, once recorded; a commit's line ids by reference, which its partial reversals name. */
    providerTransactionId: text("provider_transaction_id"),
    providerLineItems: jsonb("provider_line_items").$type<Record<string, string>>(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** When the job next tries, and the lease of the process trying (pushed forward while it asks the provider). */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("tax_transactions_source_key").on(table.source),
    uniqueIndex("tax_transactions_reference_key").on(table.reference),
    index("tax_transactions_order_idx").on(table.orderId, table.createdAt),
    index("tax_transactions_due_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index("tax_transactions_report_idx").on(table.createdAt),
    check("tax_transactions_kind_valid", sql`${table.kind} in (${inList(TAX_TRANSACTION_KINDS)})`),
    check("tax_transactions_status_valid", sql`${table.status} in (${inList(TAX_TRANSACTION_STATUSES)})`),
    check("tax_transactions_mode_valid", sql`${table.mode} is null or ${table.mode} in ('full', 'partial')`),
    check("tax_transactions_money_non_negative", sql`${table.taxCents} >= 0 and ${table.amountCents} >= 0`),
  ],
);

export const STOCK_POLICIES = ["tracked", "made-to-order"] as const;
export type StockPolicy = (typeof STOCK_POLICIES)[number];

/**
 * Stock (issue 49): what the warehouse holds of each product, apart from the catalogue rows (which a
 * catalogue load replaces): `on_hand` units not yet sold, of which `reserved` are held by checkouts paying
 * now. A product made to order has no count, only its lead time. Every change is one conditional update
 * that keeps `0 <= reserved <= on_hand`, so no two payments take the last unit.
 */
export const productStock = pgTable(
  "product_stock",
  {
    productKey: text("product_key").primaryKey(),
    policy: text("policy").$type<StockPolicy>().notNull().default("tracked"),
    onHand: integer("on_hand").notNull().default(0),
    reserved: integer("reserved").notNull().default(0),
    /** A made-to-order product's lead time, as shoppers read it: "4 - 6 weeks". */
    leadTime: text("lead_time"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("product_stock_low_idx").on(table.onHand),
    check("product_stock_policy_valid", sql`${table.policy} in (${inList(STOCK_POLICIES)})`),
    check("product_stock_counts_valid", sql`${table.reserved} >= 0 and ${table.onHand} >= ${table.reserved}`),
  ],
);

export const STOCK_HOLD_STATUSES = ["held", "allocated", "released"] as const;
export type StockHoldStatus = (typeof STOCK_HOLD_STATUSES)[number];

/** Units a checkout holds while its payment is under way, until `expires_at`: then released by the stock.release sweep, or allocated to its order. */
export const stockHolds = pgTable(
  "stock_holds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    checkoutToken: text("checkout_token").notNull(),
    productKey: text("product_key").notNull(),
    quantity: integer("quantity").notNull(),
    status: text("status").$type<StockHoldStatus>().notNull().default("held"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    // One live hold per checkout and product: a payment started again extends it.
    uniqueIndex("stock_holds_live_key")
      .on(table.checkoutToken, table.productKey)
      .where(sql`${table.status} = 'held'`),
    index("stock_holds_due_idx")
      .on(table.expiresAt)
      .where(sql`${table.status} = 'held'`),
    check("stock_holds_status_valid", sql`${table.status} in (${inList(STOCK_HOLD_STATUSES)})`),
    check("stock_holds_quantity_positive", sql`${table.quantity} > 0`),
  ],
);

/**
 * Every change of a product's on-hand count, with who, why and how many: sales, cancellations, returns,
 * staff counts and imports. `source` names the cause once (`order:{orderId}`, `cancel:{orderId}`,
 * `return:{requestId}`...), so a cause moves stock once however often it is posted.
 */
export const stockMovements = pgTable(
  "stock_movements",
  {
    id: serial("id").primaryKey(),
    productKey: text("product_key").notNull(),
    delta: integer("delta").notNull(),
    onHandAfter: integer("on_hand_after").notNull(),
    reason: text("reason").notNull(),
    actor: text("actor").notNull(),
    orderId: text("order_id"),
    source: text("source"),
    note: text("note"),
    createdAt: createdAt(),
  },
  (table) => [
    index("stock_movements_product_idx").on(table.productKey, table.createdAt),
    uniqueIndex("stock_movements_source_key").on(table.source, table.productKey),
  ],
);

export const STOCK_ALERT_STATUSES = ["pending", "confirmed", "sent", "unsubscribed"] as const;
export type StockAlertStatus = (typeof STOCK_ALERT_STATUSES)[number];

/**
 * "Notify me when available" on a product out of stock: double opt-in like the newsletter (`pending` until
 * the signed link's button confirms), then one email when the product is back (`sent`), or none after the
 * unsubscribe link. One row per product and address.
 */
export const stockAlerts = pgTable(
  "stock_alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productKey: text("product_key").notNull(),
    email: text("email").notNull(),
    status: text("status").$type<StockAlertStatus>().notNull().default("pending"),
    createdAt: createdAt(),
    confirmationSentAt: timestamp("confirmation_sent_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("stock_alerts_product_email_key").on(table.productKey, sql`lower(${table.email})`),
    index("stock_alerts_waiting_idx")
      .on(table.productKey)
      .where(sql`${table.status} = 'confirmed'`),
    check("stock_alerts_status_valid", sql`${table.status} in (${inList(STOCK_ALERT_STATUSES)})`),
  ],
);

/** A row of a stock CSV import as its preview showed it: the count seen then, and the count the file asks for. */
export interface StockImportRow {
  /** The row's number in the file (the header is row 1), as a spreadsheet numbers it. */
  row: number;
  productKey: string;
  title: string;
  before: number;
  after: number;
  reason: string;
}

/** A row of a stock CSV import that cannot be applied, and why. */
export interface StockImportError {
  row: number;
  message: string;
}

/**
 * A stock CSV import's preview (app/stock/stock-import.server.ts): every row with the count the page showed
 * and the count asked for, the rows' errors, the file's SHA-256. Applied at most once (`applied_at`), as one
 * transaction, only without errors and only while every count is still the one the preview showed.
 */
export const stockImports = pgTable(
  "stock_imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    staffId: uuid("staff_id").notNull(),
    staffEmail: text("staff_email").notNull(),
    fileName: text("file_name").notNull(),
    digest: text("digest").notNull(),
    rows: jsonb("rows").$type<StockImportRow[]>().notNull(),
    errors: jsonb("errors").$type<StockImportError[]>().notNull(),
    createdAt: createdAt(),
    appliedAt: timestamp("applied_at", { withTimezone: true }),
    appliedBy: text("applied_by"),
  },
  (table) => [index("stock_imports_created_idx").on(table.createdAt)],
);

/**
 * Every change made on the catalogue desk or by its CSV import (app/catalog/desk): who, when, which field,
 * the value before and after (prices as integer cents), shown per product.
 */
export const catalogChanges = pgTable(
  "catalog_changes",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    productKey: text("product_key").notNull(),
    field: text("field").notNull(),
    oldValue: text("old_value"),
    newValue: text("new_value"),
    staffEmail: text("staff_email").notNull(),
    /** `desk`, or `import:{id}` for a CSV import. */
    source: text("source").notNull(),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("catalog_changes_product_idx").on(table.productKey, table.changedAt)],
);

/** A row of a catalogue CSV import's preview: the product, and each field that changes with its value now and asked for. */
export interface CatalogImportRow {
  row: number;
  productKey: string;
  title: string;
  deskVersion: number;
  changes: Array<{ field: string; before: string | null; after: string | null }>;
}

/** A catalogue CSV import's preview, applied at most once, all or nothing (app/catalog/desk/catalog-import.server.ts). */
export const catalogImports = pgTable(
  "catalog_imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    staffId: uuid("staff_id").notNull(),
    staffEmail: text("staff_email").notNull(),
    fileName: text("file_name").notNull(),
    digest: text("digest").notNull(),
    rows: jsonb("rows").$type<CatalogImportRow[]>().notNull(),
    errors: jsonb("errors").$type<StockImportError[]>().notNull(),
    createdAt: createdAt(),
    appliedAt: timestamp("applied_at", { withTimezone: true }),
    appliedBy: text("applied_by"),
  },
  (table) => [index("catalog_imports_created_idx").on(table.createdAt)],
);
