import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { contentSecurityPolicy } from "./content-security-policy.server";

const NONCE = "bm9uY2Utbm9uY2Utbm9uY2U=";

function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(";").map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

const originsIn = (policy: string) => [...new Set(policy.match(/https?:\/\/[^\s;]+/g) ?? [])];

describe("contentSecurityPolicy", () => {
  it("allows nothing third-party with no provider keys", () => {
    const policy = contentSecurityPolicy(parseConfig({}), NONCE);
    expect(originsIn(policy)).toEqual([]);
    const d = directives(policy);
    expect(d["script-src"]).toEqual(["'self'", `'nonce-${NONCE}'`]);
    expect(d["default-src"]).toEqual(["'self'"]);
    expect(d["frame-ancestors"]).toEqual(["'none'"]);
    expect(d["object-src"]).toEqual(["'none'"]);
    expect(d["base-uri"]).toEqual(["'self'"]);
    expect(d["form-action"]).toEqual(["'self'"]);
    expect(policy).not.toContain("unsafe-eval");
    expect(d["script-src"]).not.toContain("'unsafe-inline'");
  });

  it("puts the request's nonce in script-src", () => {
    expect(directives(contentSecurityPolicy(parseConfig({}), "abc123"))["script-src"]).toContain("'nonce-abc123'");
  });

  it("allows Stripe's hosts for Stripe.js, its frames, its API and Checkout", () => {
    const d = directives(
      contentSecurityPolicy(parseConfig({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1" }), NONCE),
    );
    expect(d["script-src"]).toContain("https://js.stripe.com");
    expect(d["frame-src"]).toEqual(expect.arrayContaining(["https://js.stripe.com", "https://hooks.stripe.com"]));
    expect(d["connect-src"]).toContain("https://api.stripe.com");
    expect(d["form-action"]).toContain("https://checkout.stripe.com");
  });

  it("derives every origin from the configured hosts, so a sandbox or a local fake is allowed and nothing else", () => {
    const policy = contentSecurityPolicy(
      parseConfig({
        STRIPE_SECRET_KEY: "sk_test_1",
        STRIPE_PUBLISHABLE_KEY: "pk_test_1",
        STRIPE_API_BASE: "http://127.0.0.1:5001",
        STRIPE_JS_URL: "http://127.0.0.1:5001/v3/stripe.js",
        PAYPAL_CLIENT_ID: "client",
        PAYPAL_CLIENT_SECRET: "secret",
        PAYPAL_API_BASE: "http://127.0.0.1:5002",
        PAYPAL_SDK_BASE: "http://127.0.0.1:5002",
        AFFIRM_PUBLIC_API_KEY: "public",
        AFFIRM_PRIVATE_API_KEY: "private",
        AFFIRM_API_BASE: "http://127.0.0.1:5003",
        AFFIRM_JS_URL: "http://127.0.0.1:5003/js/v2/affirm.js",
        AUTHORIZE_NET_API_LOGIN_ID: "login",
        AUTHORIZE_NET_TRANSACTION_KEY: "key",
        AUTHORIZE_NET_API_BASE: "http://127.0.0.1:5004",
        AUTHORIZE_NET_HOSTED_URL: "http://127.0.0.1:5004/payment/payment",
      }),
      NONCE,
    );
    expect(originsIn(policy).sort()).toEqual([
      "http://127.0.0.1:5001",
      "http://127.0.0.1:5002",
      "http://127.0.0.1:5003",
      "http://127.0.0.1:5004",
    ]);
    const d = directives(policy);
    expect(d["script-src"]).toEqual(expect.arrayContaining(["http://127.0.0.1:5001", "http://127.0.0.1:5002", "http://127.0.0.1:5003"]));
    // The hosted card form is framed and posted to, never run as a script of ours.
    expect(d["script-src"]).not.toContain("http://127.0.0.1:5004");
    expect(d["frame-src"]).toContain("http://127.0.0.1:5004");
    expect(d["form-action"]).toEqual(
      expect.arrayContaining(["http://127.0.0.1:5001", "http://127.0.0.1:5002", "http://127.0.0.1:5003", "http://127.0.0.1:5004"]),
    );
  });

  it("follows each provider's environment setting", () => {
    const sandbox = contentSecurityPolicy(
      parseConfig({
        PAYPAL_CLIENT_ID: "c",
        PAYPAL_CLIENT_SECRET: "s",
        AUTHORIZE_NET_API_LOGIN_ID: "l",
        AUTHORIZE_NET_TRANSACTION_KEY: "k",
      }),
      NONCE,
    );
    expect(directives(sandbox)["script-src"]).toContain("https://www.sandbox.paypal.com");
    expect(directives(sandbox)["frame-src"]).toContain("https://test.authorize.net");
    const production = contentSecurityPolicy(
      parseConfig({
        PAYPAL_CLIENT_ID: "c",
        PAYPAL_CLIENT_SECRET: "s",
        PAYPAL_ENVIRONMENT: "production",
        AFFIRM_PUBLIC_API_KEY: "p",
        AFFIRM_PRIVATE_API_KEY: "q",
        AFFIRM_ENVIRONMENT: "production",
      }),
      NONCE,
    );
    expect(directives(production)["script-src"]).toEqual(expect.arrayContaining(["https://www.paypal.com", "https://cdn1.affirm.com"]));
    expect(production).not.toContain("sandbox");
  });

  it("allows Google's Maps hosts only with a maps key", () => {
    expect(contentSecurityPolicy(parseConfig({}), NONCE)).not.toContain("googleapis");
    const d = directives(contentSecurityPolicy(parseConfig({ GOOGLE_MAPS_API_KEY: "key" }), NONCE));
    expect(d["script-src"]).toContain("https://maps.googleapis.com");
    expect(d["font-src"]).toContain("https://fonts.gstatic.com");
  });
});
