import type { Config } from "~/config.server";
import { paypalSdkUrl } from "~/services/payments/paypal.server";

/** Affirm's affirm.js for each environment (AFFIRM_JS_URL overrides it). */
const AFFIRM_SCRIPT_URLS = {
  sandbox: "https://cdn1-sandbox.affirm.com/js/v2/affirm.js",
  production: "https://cdn1.affirm.com/js/v2/affirm.js",
} as const;

/** What the browser may see: public keys and store contact facts only. */
export function publicConfig(config: Config) {
  return {
    storeName: config.STORE_NAME,
    storePhone: config.STORE_PHONE,
    storeEmail: config.STORE_EMAIL,
    stripePublishableKey: config.STRIPE_PUBLISHABLE_KEY ?? null,
    stripeJsUrl: config.STRIPE_JS_URL ?? null,
    paypalClientId: config.PAYPAL_CLIENT_ID ?? null,
    /** The PayPal JS SDK address (PayPal's host for the environment, or PAYPAL_SDK_BASE). */
    paypalSdkUrl: paypalSdkUrl(config),
    affirmPublicKey: config.AFFIRM_PUBLIC_API_KEY ?? null,
    /** affirm.js for the as-low-as line, only while Affirm is configured. */
    affirmScriptUrl: config.AFFIRM_PUBLIC_API_KEY ? (config.AFFIRM_JS_URL ?? AFFIRM_SCRIPT_URLS[config.AFFIRM_ENVIRONMENT]) : null,
    googleMapsApiKey: config.GOOGLE_MAPS_API_KEY ?? null,
  };
}

export type PublicConfig = ReturnType<typeof publicConfig>;
