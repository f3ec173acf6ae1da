import type { Config } from "~/config.server";
import { publicConfig } from "~/public-config.server";
import { affirmApiBase } from "~/services/payments/affirm.server";
import { authorizeNetHostedUrl } from "~/services/payments/authorize-net.server";
import { paypalApiBase, paypalSdkUrl } from "~/services/payments/paypal.server";

/**
 * The Content-Security-Policy of every page (entry.server.tsx sets it on HTML
 * documents). Scripts run only from our origin or with this request's nonce,
 * plus the script, frame and API origins of the providers that are
 * configured, taken from the same settings the drivers use (so a sandbox or a
 * local fake is allowed exactly when it is the configured host). With no
 * provider keys nothing third-party is allowed at all.
 *
 * Styles allow 'unsafe-inline': React renders `style` attributes and the
 * providers' widgets inject styles; scripts are what the policy guards.
 */
type Directive =
  | "default-src"
  | "script-src"
  | "style-src"
  | "img-src"
  | "font-src"
  | "connect-src"
  | "frame-src"
  | "form-action"
  | "frame-ancestors"
  | "base-uri"
  | "object-src"
  | "worker-src";

type Sources = Partial<Record<Directive, string[]>>;

export function contentSecurityPolicy(config: Config, nonce: string): string {
  const policy: Record<Directive, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "frame-src": ["'self'"],
    // Payment buttons post to /payments/start, which redirects to the provider's page: form-action covers that redirect.
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
    "worker-src": ["'self'"],
  };
  for (const sources of providerSources(config)) {
    for (const [directive, origins] of Object.entries(sources) as Array<[Directive, string[]]>) {
      for (const origin of origins) if (!policy[directive].includes(origin)) policy[directive].push(origin);
    }
  }
  return (Object.entries(policy) as Array<[Directive, string[]]>)
    .map(([directive, sources]) => `${directive} ${sources.join(" ")}`)
    .join("; ");
}

/** The origins each configured provider needs in the browser; none for a provider without keys. */
function providerSources(config: Config): Sources[] {
  const sources: Sources[] = [];

  if (config.STRIPE_PUBLISHABLE_KEY) {
    // Stripe.js (or the configured stand-in, which also answers its API calls), its frames and 3-D Secure pages;
    // without script the card button goes to Checkout, on Stripe's host or the configured API host.
    const js = config.STRIPE_JS_URL ? [originOf(config.STRIPE_JS_URL)] : ["https://js.stripe.com", "https://*.js.stripe.com"];
    const hosted = config.STRIPE_API_BASE ? [originOf(config.STRIPE_API_BASE)] : ["https://checkout.stripe.com"];
    sources.push({
      "script-src": js,
      "frame-src": config.STRIPE_JS_URL ? js : [...js, "https://hooks.stripe.com"],
      "connect-src": config.STRIPE_JS_URL ? js : ["https://api.stripe.com"],
      "form-action": hosted,
    });
  }

  if (config.PAYPAL_CLIENT_ID) {
    const sdk = originOf(paypalSdkUrl(config));
    const paypalHosts = config.PAYPAL_SDK_BASE ? [sdk] : [sdk, "https://*.paypal.com", "https://*.paypalobjects.com"];
    sources.push({
      "script-src": paypalHosts,
      "connect-src": paypalHosts,
      "frame-src": paypalHosts,
      "img-src": paypalHosts,
      // Without script the shopper approves on PayPal's page (the approve link the API hands out).
      "form-action": [
        sdk,
        ...(config.PAYPAL_API_BASE ? [originOf(paypalApiBase(config))] : []),
        ...(config.PAYPAL_SDK_BASE ? [] : ["https://*.paypal.com"]),
      ],
    });
  }

  if (config.AFFIRM_PUBLIC_API_KEY) {
    // affirm.js (the as-low-as line) and the API host whose application page Direct Checkout redirects to.
    const script = publicConfig(config).affirmScriptUrl;
    const hosts = [originOf(affirmApiBase(config)), ...(script ? [originOf(script)] : [])];
    const affirmHosts = config.AFFIRM_JS_URL || config.AFFIRM_API_BASE ? hosts : [...hosts, "https://*.affirm.com"];
    sources.push({
      "script-src": affirmHosts,
      "connect-src": affirmHosts,
      "frame-src": affirmHosts,
      "img-src": affirmHosts,
      // Direct Checkout: /payments/start redirects to Affirm's application page.
      "form-action": affirmHosts,
    });
  }

  if (config.AUTHORIZE_NET_API_LOGIN_ID) {
    // Accept Hosted: our page posts the token into a frame (or, without script, the whole page) on the hosted form.
    const hosted = originOf(authorizeNetHostedUrl(config));
    sources.push({ "frame-src": [hosted], "form-action": [hosted] });
  }

  if (config.GOOGLE_MAPS_API_KEY) {
    // Places autocomplete (https://developers.google.com/maps/documentation/javascript/content-security-policy).
    sources.push({
      "script-src": ["https://maps.googleapis.com", "https://*.gstatic.com"],
      "connect-src": ["https://maps.googleapis.com", "https://places.googleapis.com", "https://*.gstatic.com"],
      "img-src": ["https://maps.googleapis.com", "https://*.gstatic.com", "https://*.google.com", "https://*.googleusercontent.com"],
      "style-src": ["https://fonts.googleapis.com"],
      "font-src": ["https://fonts.gstatic.com"],
      "frame-src": ["https://*.google.com"],
      "worker-src": ["blob:"],
    });
  }

  return sources;
}

function originOf(url: string): string {
  return new URL(url).origin;
}
