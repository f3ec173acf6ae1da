import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";

/**
 * Docker cannot run here, so the deployment files are checked as files:
 * deploy/compose.yaml's services, health checks, start order and settings
 * (every key it gives the store is one .env.example documents), the
 * Caddyfile through `caddy validate` and `caddy adapt` (skipped, saying so,
 * without Caddy), and the image's contents for the operator commands.
 */

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  env_file?: unknown;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number };
  ports?: string[];
  volumes?: string[];
  restart?: string;
}

const compose = parse(readFileSync("deploy/compose.yaml", "utf8"), { merge: true }) as {
  name: string;
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const exampleKeys = readFileSync(".env.example", "utf8")
  .split("\n")
  .filter((line) => /^[A-Z_]+=/.test(line))
  .map((line) => line.slice(0, line.indexOf("=")));
const packageScripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;

describe("deploy/compose.yaml", () => {
  it("has Caddy, the store replicated, a one-shot migration and PostgreSQL 16 (and, with the monitoring profile, Prometheus and Grafana)", () => {
    expect(Object.keys(services).sort()).toEqual(["caddy", "grafana", "migrate", "postgres", "prometheus", "store"]);
    expect(services.store.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(services.postgres.image).toBe("postgres:16");
    // A release with the HTTP/2 rapid-reset fix (CVE-2023-44487, fixed in 2.7.5) and the retry of a POST whose
    // process could not be reached (fixed in 2.11.2): passive health checks are off (deploy/Caddyfile).
    const caddyVersion = /^caddy:(\d+)\.(\d+)(?:\.(\d+))?$/.exec(services.caddy.image ?? "");
    expect(caddyVersion, services.caddy.image).not.toBeNull();
    const [major, minor, patch] = caddyVersion!.slice(1).map((part) => Number(part ?? 0));
    expect(major * 1_000_000 + minor * 1_000 + patch).toBeGreaterThanOrEqual(2_011_002);
    // The store and its migration run the image this repository's Dockerfile builds.
    for (const name of ["store", "migrate"]) {
      expect(services[name].build, name).toEqual({ context: "..", dockerfile: "Dockerfile" });
      expect(services[name].image, name).toBe(services.store.image);
    }
    expect(services.caddy.ports).toEqual(expect.arrayContaining(["80:80", "443:443", "443:443/udp"]));
  });

  it("keeps PostgreSQL's data, Caddy's certificates and the monitoring's data in volumes", () => {
    expect(services.postgres.volumes).toContain("postgres_data:/var/lib/postgresql/data");
    expect(services.caddy.volumes).toEqual(expect.arrayContaining(["./Caddyfile:/etc/caddy/Caddyfile:ro", "caddy_data:/data"]));
    expect(Object.keys(compose.volumes).sort()).toEqual(["caddy_config", "caddy_data", "grafana_data", "postgres_data", "prometheus_data"]);
  });

  it("migrates once before any store process starts, after PostgreSQL answers", () => {
    expect(services.postgres.healthcheck?.test.join(" ")).toContain("pg_isready");
    expect(services.migrate.command).toEqual(["npm", "run", "db:migrate"]);
    expect(packageScripts["db:migrate"]).toBeDefined();
    expect(services.migrate.restart).toBe("no");
    expect(services.migrate.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    expect(services.store.depends_on).toEqual({
      postgres: { condition: "service_healthy" },
      migrate: { condition: "service_completed_successfully" },
    });
  });

  it("checks each store process's readiness", () => {
    expect(services.store.healthcheck?.test.join(" ")).toContain("/readyz");
  });

  it("runs the store behind one trusted proxy, at its public https address, on the compose PostgreSQL", () => {
    const environment = services.store.environment ?? {};
    expect(environment.TRUSTED_PROXIES).toBe("1");
    expect(environment.PUBLIC_BASE_URL).toMatch(/^https:\/\//);
    expect(environment.DATABASE_URL).toMatch(/^postgres:\/\/store:.+@postgres:5432\/store$/);
    expect(services.migrate.environment?.DATABASE_URL).toBe(environment.DATABASE_URL);
  });

  it("sets only keys .env.example documents, and reads only variables it documents", () => {
    for (const name of ["store", "migrate"]) {
      for (const key of Object.keys(services[name].environment ?? {})) expect(exampleKeys, `${name} sets ${key}`).toContain(key);
    }
    const text = readFileSync("deploy/compose.yaml", "utf8");
    const interpolated = [...text.matchAll(/\$\{([A-Z_]+)/g)].map((match) => match[1]);
    expect(interpolated.length).toBeGreaterThan(0);
    for (const variable of new Set(interpolated)) expect(exampleKeys, `compose reads \${${variable}}`).toContain(variable);
  });

  it("points Caddy at every store replica by the names compose gives them", () => {
    const upstreams = (services.caddy.environment?.STORE_UPSTREAMS ?? "").split(/\s+/);
    const replicas = services.store.deploy?.replicas ?? 0;
    const port = services.store.environment?.PORT;
    expect(upstreams).toEqual(Array.from({ length: replicas }, (_, index) => `${compose.name}-store-${index + 1}:${port}`));
  });
});

describe("the image", () => {
  const dockerfile = readFileSync("Dockerfile", "utf8");
  const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
  const ignored = readFileSync(".dockerignore", "utf8").split("\n");
  const manifest = JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };

  it("holds what db:migrate, staff:create, staff:revoke and catalog:import run on", () => {
    for (const needed of ["app", "scripts", "drizzle", "catalog"]) {
      expect(runtimeStage, needed).toMatch(new RegExp(`^COPY ${needed} \\./${needed}$`, "m"));
      expect(ignored, needed).not.toContain(needed);
    }
    expect(runtimeStage).toMatch(/^COPY package\.json tsconfig\.json \.\/$/m);
    // The commands run their TypeScript with tsx, so it must survive `npm ci --omit=dev`.
    expect(manifest.dependencies.tsx).toBeDefined();
    for (const command of ["db:migrate", "staff:create", "staff:revoke", "catalog:import"]) {
      expect(packageScripts[command], command).toMatch(/^tsx \.\/scripts\//);
    }
  });

  it("installs node_modules patched in both stages that run npm ci (patches/, ADR 017)", () => {
    const installStages = dockerfile.split(/\nFROM /).filter((stage) => /^RUN npm ci/m.test(stage));
    expect(installStages).toHaveLength(2);
    for (const stage of installStages) {
      expect(stage.indexOf("COPY patches ./patches")).toBeGreaterThan(-1);
      expect(stage.indexOf("COPY patches ./patches")).toBeLessThan(stage.indexOf("RUN npm ci"));
      expect(stage).not.toMatch(/npm ci[^\n]*--ignore-scripts/);
    }
    expect(ignored).not.toContain("patches");
    // `npm ci --omit=dev` runs the postinstall too: patch-package must survive it.
    expect(packageScripts.postinstall).toMatch(/^patch-package\b/);
    expect(manifest.dependencies["patch-package"]).toBeDefined();
  });
});

const caddyMissing = spawnSync("caddy", ["version"]).status !== 0;
if (caddyMissing) console.log("deploy/Caddyfile not validated: caddy is not installed (apt-get install -y caddy)");

describe.skipIf(caddyMissing)("deploy/Caddyfile", () => {
  const home = mkdtempSync(path.join(tmpdir(), "caddy-validate-"));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  // Caddy's data and config folders in a temporary home, never the machine's.
  const env = {
    ...process.env,
    XDG_DATA_HOME: path.join(home, "data"),
    XDG_CONFIG_HOME: path.join(home, "config"),
    STORE_DOMAIN: "shop.example.com",
    STORE_UPSTREAMS: "store-store-1:3000 store-store-2:3000 store-store-3:3000",
    CADDY_ADMIN: "off",
  };
  const caddy = (command: string) =>
    execFileSync("caddy", [command, "--config", "deploy/Caddyfile", "--adapter", "caddyfile"], { env, encoding: "utf8", stdio: "pipe" });

  it("is valid with its placeholders set", () => {
    expect(() => caddy("validate")).not.toThrow();
  });

  it("balances over every upstream with readiness checks and retries only what is safe", () => {
    const adapted: unknown = JSON.parse(caddy("adapt"));
    const config = JSON.stringify(adapted);
    // Two handlers reach the store the same way: the build's files (with the browser's Accept-Encoding) and everything else.
    const proxies = findHandlers(adapted, "reverse_proxy") as {
      upstreams: { dial: string }[];
      health_checks: { active: { uri: string; interval: number }; passive?: unknown };
      load_balancing: { retry_match: { method: string[] }[]; try_duration: number };
      transport: { keep_alive: { idle_timeout: number }; compression: boolean };
      headers?: { request?: { delete?: string[]; set?: Record<string, string[]> } };
    }[];
    expect(proxies).toHaveLength(2);
    for (const proxy of proxies) {
      expect(proxy.upstreams.map((upstream) => upstream.dial)).toEqual(env.STORE_UPSTREAMS.split(" "));
      expect(proxy.health_checks.active.uri).toBe("/readyz");
      expect(proxy.load_balancing.retry_match).toEqual([{ method: ["GET", "HEAD"] }]);
      expect(proxy.load_balancing.try_duration).toBeGreaterThan(0);
      // Caddy closes idle upstream connections before the store does (KEEP_ALIVE_TIMEOUT_MS, 5 s).
      expect(proxy.transport.keep_alive.idle_timeout).toBeLessThan(5_000_000_000);
      // Caddy never asks the store for gzip of its own accord.
      expect(proxy.transport.compression).toBe(false);
      // A fresh id per request, whatever the client sent: the store takes it as its own (TRUSTED_PROXIES > 0).
      expect(proxy.headers?.request?.set?.["X-Request-Id"]).toEqual(["{http.request.uuid}"]);
    }
    // The build's files come with the store's brotli copies; pages are compressed by Caddy, so the store gets no Accept-Encoding.
    const [assets, pages] = proxies;
    expect(assets.headers?.request?.delete ?? []).not.toContain("Accept-Encoding");
    expect(pages.headers?.request?.delete).toEqual(["Accept-Encoding"]);
    // Every listener, port 80's redirect included, cuts a client that has not sent its headers in 10 s.
    const servers = Object.values(
      (adapted as { apps: { http: { servers: Record<string, { read_header_timeout?: number }> } } }).apps.http.servers,
    );
    expect(servers.length).toBe(2);
    for (const server of servers) expect(server.read_header_timeout).toBe(10_000_000_000);
    expect(config).toContain('"protocols":["h1","h2","h3"]');
    expect(config).toContain('"max_size":1048576');
    expect(config).toContain("public, max-age=31536000, immutable");
    expect(config).toContain('"prefer":["zstd","gzip"]');
    // No trusted_proxies: Caddy overwrites X-Forwarded-For and -Proto with what it saw.
    expect(config).not.toContain("trusted_proxies");
  });

  it("writes an access log that the store's request lines join by X-Request-Id, without query strings or request headers", () => {
    const adapted = JSON.parse(caddy("adapt")) as {
      logging: { logs: Record<string, { include?: string[]; encoder?: { format: string; fields: Record<string, { filter: string }> } }> };
    };
    const access = Object.values(adapted.logging.logs).find((log) => log.include?.some((name) => name.startsWith("http.log.access")));
    expect(access?.encoder?.format).toBe("filter");
    expect(access?.encoder?.fields["request>uri"]).toMatchObject({ filter: "regexp" });
    expect(access?.encoder?.fields["request>headers"]).toEqual({ filter: "delete" });
  });
});

/** Every handler named `name` in Caddy's JSON configuration, in the order Caddy routes to them. */
function findHandlers(node: unknown, name: string): unknown[] {
  if (Array.isArray(node)) return node.flatMap((item) => findHandlers(item, name));
  if (!node || typeof node !== "object") return [];
  if ((node as { handler?: string }).handler === name) return [node];
  return Object.values(node).flatMap((value) => findHandlers(value, name));
}
