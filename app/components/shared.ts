/**
 * The client code root's layout shares with the pages, in one module. esbuild gives each
 * combination of entry points that reaches a module a chunk of its own, so a dozen small modules
 * imported by root and by different sets of routes became a dozen script files on every page.
 * Imported from here by every page and component (never one by one: eslint.config.js), they share
 * one set of entry points and so one chunk, which root loads on every page anyway. What only parts
 * loaded later use (the newsletter forms: `mailing-list/newsletter`, `NewsletterEmailField`) is
 * imported directly instead, so it stays out of every page's first load.
 *
 * A part loaded on demand (`deferred(() => import(...))`: the carousel, the chat button, the error
 * page) is an entry point too, and imports from here like any component. None of the modules listed
 * here may load such a part in turn: that would be an import circle (tests/support/import-cycles.test.ts),
 * so a part's loader sits in the module that draws it (root's in `layout/on-demand.ts`). The modules
 * listed here import each other by their own files. A part loaded on demand never does: the one
 * module it named would gain an entry point the others lack and become a script file of its own.
 */
export { brandDisplayName, DISPLAYED_BRANDS, isBrandKey, OWN_SEASONING_ID, OWN_SEASONING_PRICE, parseProductKey } from "~/catalog/brands";
export { SERVICE_HOURS } from "~/contact/service-hours";
export { formatDate, formatDateTimeUtc, formatPhone, formatUsd, parseQuantity, scaleCents, telHref } from "~/utils/format";
export { useHydrated } from "~/utils/use-hydrated";
export {
  type CarouselOptions,
  cssVariables,
  hasInteracted,
  INTERACTIONS,
  PRODUCT_CAROUSEL,
  swiperBreakpoints,
  TESTIMONIAL_CAROUSEL,
} from "./carousel";
export { BackToStoreLink, CHAT_PATH, ChatLink } from "./ChatButton";
export { deferred } from "./deferred";
export { CartIcon, CartXIcon, ChatIcon, PhoneIcon, SearchIcon, StarIcon, TrashIcon } from "./icons";
export {
  BRAND_MENU,
  brandPath,
  CATEGORY_MENUS,
  categoryPath,
  type Menu,
  POLICY_LINKS,
  PROMO_BANNER,
  UTILITY_LINKS,
} from "./layout/navigation";
export { KeptMarkup } from "./markup-cache";
export { CARD_IMAGE_SIZES, picturePreload, ProductImage } from "./ProductImage";
export { CARD_LINK_CLASS, SiteLink, useSiteLinkNavigation } from "./site-link";
export { cardData, priceToCents, type ProductCardData, productPath, type ProductSummary, type StoreProduct } from "~/catalog/store-product";
export {
  financingMonthlyCents,
  qualifiesForFreeShipping,
  SINGLE_PRODUCT_MAX_QUANTITY,
  STRUCK_PRICE_FACTOR,
  struckPriceCents,
  TAX_LINE,
} from "~/pricing/pricing";
export { useStore } from "~/utils/use-store";
