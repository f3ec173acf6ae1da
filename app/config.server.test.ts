import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS, ConfigError, parseConfig } from "./config.server";
import { publicConfig } from "./public-config.server";

describe("parseConfig", () => {
  it("starts with nothing configured, on neutral defaults", () => {
    const config = parseConfig({});
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PGLITE_DIR).toBe("./data/pglite");
    expect(config.STORE_PHONE).toBe("(877) 555-0142");
    expect(config.STORE_EMAIL).toBe("sales@example.com");
  });

  it("treats empty values as unset, so .env.example works as it is", () => {
    const config = parseConfig({ DATABASE_URL: "", STRIPE_SECRET_KEY: "  " });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.STRIPE_SECRET_KEY).toBeUndefined();
  });

  it("accepts a PostgreSQL URL", () => {
    expect(parseConfig({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" }).DATABASE_URL).toBe(
      "postgres://postgres@127.0.0.1:5432/test",
    );
  });

  it.each([
    [{ DATABASE_URL: "nonsense" }, "DATABASE_URL"],
    [{ DATABASE_URL: "mysql://localhost/db" }, "DATABASE_URL"],
    [{ STORE_EMAIL: "not-an-email" }, "STORE_EMAIL"],
    [{ STORE_PHONE: "12345" }, "STORE_PHONE"],
    [{ SESSION_SECRET: "short" }, "SESSION_SECRET"],
    [{ PAYPAL_ENVIRONMENT: "staging" }, "PAYPAL_ENVIRONMENT"],
    [{ OPENAI_BASE_URL: "ftp://x" }, "OPENAI_BASE_URL"],
  ])("rejects %o with one line naming %s", (env, key) => {
    try {
      parseConfig(env);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).key).toBe(key);
      expect((error as Error).message).toMatch(new RegExp(`^Configuration error: ${key} .+\\.$`));
      expect((error as Error).message).not.toContain("\n");
    }
  });

  it("reads TRUSTED_PROXIES as a hop count, 0 unless set", () => {
    expect(parseConfig({}).TRUSTED_PROXIES).toBe(0);
    expect(parseConfig({ TRUSTED_PROXIES: "2" }).TRUSTED_PROXIES).toBe(2);
    for (const bad of ["-1", "yes", "1.5", "100"]) {
      expect(() => parseConfig({ TRUSTED_PROXIES: bad })).toThrow(
        "Configuration error: TRUSTED_PROXIES must be a whole number of proxies, 0 or more.",
      );
    }
  });

  it("reads PORT and HOST with the rest, refusing a port that is no port", () => {
    expect(parseConfig({}).PORT).toBe(3000);
    expect(parseConfig({}).HOST).toBeUndefined();
    expect(parseConfig({ PORT: "8080", HOST: "127.0.0.1" })).toMatchObject({ PORT: 8080, HOST: "127.0.0.1" });
    for (const port of ["abc", "0", "65536", "80.5", "-1"])
      expect(() => parseConfig({ PORT: port })).toThrow("Configuration error: PORT must be a port number from 1 to 65535.");
    expect(() => parseConfig({ HOST: "local host" })).toThrow("Configuration error: HOST must be a host name or an IP address");
  });

  it("requires keys that only work together", () => {
    expect(() => parseConfig({ STRIPE_SECRET_KEY: "sk_test_1" })).toThrow(/STRIPE_PUBLISHABLE_KEY must be set together/);
    expect(() => parseConfig({ PAYPAL_CLIENT_SECRET: "s" })).toThrow(/PAYPAL_CLIENT_ID/);
  });

  it("never exposes secrets to the browser", () => {
    const config = parseConfig({
      STRIPE_SECRET_KEY: "sk_test_secret",
      STRIPE_PUBLISHABLE_KEY: "pk_test_public",
      SESSION_SECRET: "x".repeat(40),
    });
    const visible = JSON.stringify(publicConfig(config));
    expect(visible).toContain("pk_test_public");
    expect(visible).not.toContain("sk_test_secret");
    expect(visible).not.toContain("x".repeat(40));
  });
});

describe(".env.example", () => {
  const lines = readFileSync(".env.example", "utf8")
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line));
  const example = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]));

  it("works as it is, copied to .env", () => {
    expect(() => parseConfig(example)).not.toThrow();
  });

  it("reads the states the offline tax table charges in: the demo states unset, codes in any case, or none", () => {
    expect(parseConfig({}).TAX_REGISTERED_STATES).toEqual(["CA", "NY", "TN", "WA"]);
    expect(parseConfig({ TAX_REGISTERED_STATES: " tx, ca ,TX" }).TAX_REGISTERED_STATES).toEqual(["TX", "CA"]);
    expect(parseConfig({ TAX_REGISTERED_STATES: "none" }).TAX_REGISTERED_STATES).toEqual([]);
    expect(() => parseConfig({ TAX_REGISTERED_STATES: "CA,XX" })).toThrow(/TAX_REGISTERED_STATES must list two-letter state codes/);
    expect(() => parseConfig({ TAX_PROVIDER: "stripe" })).toThrow(
      "Configuration error: TAX_PROVIDER is stripe, which needs STRIPE_SECRET_KEY.",
    );
    expect(() => parseConfig({ TAX_PROVIDER: "avalara" })).toThrow(/TAX_PROVIDER/);
  });

  it("lists every key the store reads", () => {
    for (const key of CONFIG_KEYS.filter((name) => name !== "NODE_ENV")) expect(Object.keys(example)).toContain(key);
  });
});
