import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { collectProcessMetrics, metricsRegistry } from "~/observability/metrics.server";

/**
 * The `monitoring` profile of deploy/compose.yaml checked as files (Docker cannot run here): Prometheus
 * and Grafana start only with the profile and listen on the machine's loopback only, the store replicas
 * serve their metrics on the compose network and nowhere else, every alert has a severity, a summary and
 * a runbook, and every series an alert or a dashboard panel reads is one the store exports. With promtool
 * on PATH (apt-get install -y prometheus), the rules and the configuration are also checked by Prometheus'
 * own parser, the dashboard's queries too, and a few alerts are run against made-up series.
 */

/**
 * The series the store exports, by name and type, read from its own registry (app/observability/metrics.server.ts,
 * with the default process metrics the metrics port adds): a metric renamed there fails this test instead of
 * leaving an alert or a panel silently empty.
 */
collectProcessMetrics();
const EXPORTED_SERIES = (await metricsRegistry.getMetricsAsJSON()).map(({ name, type }) => ({ name, type: String(type) }));
const operationsGuide = readFileSync("docs/operations.md", "utf8");

/** Series Prometheus makes itself for every scrape. */
const PROMETHEUS_SERIES = ["up"];

/** The names a query may use: a histogram is read through its _bucket, _count and _sum series. */
const queryable = new Set([
  ...PROMETHEUS_SERIES,
  ...EXPORTED_SERIES.flatMap(({ name, type }) =>
    type === "histogram" ? [name, `${name}_bucket`, `${name}_count`, `${name}_sum`] : [name],
  ),
]);

/** The series names in a PromQL expression: strings, label matchers and ranges taken out first. */
function seriesNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "");
  return [...bare.matchAll(/\b(store_[a-z0-9_]+|process_[a-z0-9_]+|nodejs_[a-z0-9_]+|up)\b/g)].map((match) => match[1]);
}

interface ComposeService {
  image?: string;
  profiles?: string[];
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
}
interface AlertRule {
  alert: string;
  expr: string;
  for: string;
  labels: { severity: string };
  annotations: { summary: string; description: string; runbook: string };
}
interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: { expr: string; datasource?: { type: string; uid: string } }[];
  panels?: Panel[];
}

const read = (file: string) => readFileSync(file, "utf8");
const compose = parse(read("deploy/compose.yaml"), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const prometheusConfig = parse(read("deploy/prometheus/prometheus.yml")) as {
  global: { scrape_interval: string };
  rule_files: string[];
  scrape_configs: { job_name: string; metrics_path?: string; dns_sd_configs?: { names: string[]; type: string; port: number }[] }[];
};
const alertGroups = (parse(read("deploy/prometheus/alerts.yml")) as { groups: { name: string; rules: AlertRule[] }[] }).groups;
const rules = alertGroups.flatMap((group) => group.rules);
const dashboard = JSON.parse(read("deploy/grafana/dashboards/store.json")) as { uid: string; title: string; panels: Panel[] };
/** Every panel, those inside a collapsed row too. */
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
const panelQueries = panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));

const MONITORING = ["grafana", "prometheus"];

describe("deploy/compose.yaml's monitoring profile", () => {
  it("starts Prometheus and Grafana only with the profile, and every other service without it", () => {
    for (const [name, service] of Object.entries(services)) {
      if (MONITORING.includes(name)) expect(service.profiles, name).toEqual(["monitoring"]);
      else expect(service.profiles, name).toBeUndefined();
    }
    expect(services.prometheus.image).toMatch(/^prom\/prometheus:v3\.\d+\.\d+$/);
    expect(services.grafana.image).toMatch(/^grafana\/grafana:12\.\d+\.\d+$/);
  });

  it("publishes Prometheus and Grafana on the machine's loopback only", () => {
    expect(services.prometheus.ports).toEqual(["127.0.0.1:9090:9090"]);
    expect(services.grafana.ports).toEqual(["127.0.0.1:3001:3000"]);
    for (const name of MONITORING) for (const port of services[name].ports ?? []) expect(port, name).toMatch(/^127\.0\.0\.1:/);
  });

  it("gives Prometheus its configuration read-only, 15 days of data and a volume", () => {
    expect(services.prometheus.volumes).toEqual(expect.arrayContaining(["./prometheus:/etc/prometheus:ro", "prometheus_data:/prometheus"]));
    expect(services.prometheus.command).toEqual(
      expect.arrayContaining(["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.retention.time=15d"]),
    );
    expect(compose.volumes).toHaveProperty("prometheus_data");
  });

  it("gives Grafana its provisioning and dashboards read-only, where the dashboard provider looks", () => {
    const provider = (
      parse(read("deploy/grafana/provisioning/dashboards/store.yml")) as { providers: { type: string; options: { path: string } }[] }
    ).providers;
    expect(provider).toEqual([
      expect.objectContaining({ type: "file", options: expect.objectContaining({ path: "/var/lib/grafana/dashboards" }) }),
    ]);
    expect(services.grafana.volumes).toEqual(
      expect.arrayContaining([
        "./grafana/provisioning:/etc/grafana/provisioning:ro",
        `./grafana/dashboards:${provider[0].options.path}:ro`,
        "grafana_data:/var/lib/grafana",
      ]),
    );
    const datasources = (parse(read("deploy/grafana/provisioning/datasources/prometheus.yml")) as { datasources: unknown[] }).datasources;
    expect(datasources).toEqual([expect.objectContaining({ type: "prometheus", uid: "prometheus", url: "http://prometheus:9090" })]);
  });

  it("turns Grafana's anonymous access and sign-up off and has no default admin password", () => {
    const environment = services.grafana.environment ?? {};
    expect(environment.GF_AUTH_ANONYMOUS_ENABLED).toBe("false");
    expect(environment.GF_USERS_ALLOW_SIGN_UP).toBe("false");
    // From .env, never a default written here: `${VAR:?}` would stop a plain `up` too (compose interpolates every
    // service, profile or not), so an empty value is allowed through compose and refused by the entrypoint.
    expect(environment.GF_SECURITY_ADMIN_PASSWORD).toMatch(/^\$\{GRAFANA_ADMIN_PASSWORD(?::-|:\?[^}]+)?\}$/);
  });

  it("refuses to start Grafana without an admin password", () => {
    const [shell, flag, script, ...args] = services.grafana.entrypoint ?? [];
    expect([shell, flag]).toEqual(["/bin/sh", "-c"]);
    expect(script).toContain("exec /run.sh");
    // The script as the container runs it: compose turns $$ into $. Grafana itself replaced by echo.
    const run = (password: string) =>
      spawnSync("/bin/sh", ["-c", script.replaceAll("$$", "$").replace("exec /run.sh", "echo started"), ...args, "--flag"], {
        env: { ...process.env, GF_SECURITY_ADMIN_PASSWORD: password },
        encoding: "utf8",
      });
    const refused = run("");
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("GRAFANA_ADMIN_PASSWORD");
    expect(refused.stdout).toBe("");
    const started = run("s3cret-enough");
    expect(started.status).toBe(0);
    expect(started.stdout.trim()).toBe("started --flag");
  });

  it("has every store replica serve metrics on the compose network, never published nor proxied", () => {
    const environment = services.store.environment ?? {};
    expect(environment.METRICS_HOST).toBe("0.0.0.0");
    expect(environment.METRICS_PORT).toBe("9464");
    expect(services.store.ports).toBeUndefined();
    for (const [name, service] of Object.entries(services)) {
      for (const port of service.ports ?? []) expect(port, name).not.toContain(environment.METRICS_PORT);
    }
    // Caddy proxies the store's own port only.
    const caddyfile = read("deploy/Caddyfile");
    expect(caddyfile).not.toMatch(/9464|metrics/i);
    for (const upstream of (services.caddy.environment?.STORE_UPSTREAMS ?? "").split(/\s+/)) {
      expect(upstream).toMatch(new RegExp(`:${environment.PORT}$`));
    }
  });
});

describe("deploy/prometheus", () => {
  it("scrapes every store replica by the service's name, on its metrics port, every 15 s", () => {
    expect(prometheusConfig.global.scrape_interval).toBe("15s");
    expect(prometheusConfig.rule_files).toEqual(["alerts.yml"]);
    const store = prometheusConfig.scrape_configs.find((job) => job.job_name === "store");
    expect(store?.dns_sd_configs).toEqual([
      expect.objectContaining({ names: ["store"], type: "A", port: Number(services.store.environment?.METRICS_PORT) }),
    ]);
  });

  it("gives every alert a delay, a severity, a summary, a description and a runbook in docs/operations.md", () => {
    expect(alertGroups.map((group) => group.name)).toEqual(["store"]);
    for (const rule of rules) {
      expect(rule.alert, JSON.stringify(rule)).toMatch(/^Store[A-Za-z]+$/);
      expect(rule.expr, rule.alert).toBeTruthy();
      expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
      expect(["page", "ticket"], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
      expect(rule.annotations?.runbook, rule.alert).toBe(`docs/operations.md#${rule.alert.toLowerCase()}`);
      // The anchor is the alert's own heading in the runbook.
      expect(operationsGuide, rule.alert).toMatch(new RegExp(`^### ${rule.alert}$`, "m"));
    }
    expect(new Set(rules.map((rule) => rule.alert)).size).toBe(rules.length);
  });

  it("has the alerts the operations guide expects", () => {
    const byName = new Map(rules.map((rule) => [rule.alert, rule]));
    for (const name of [
      "StoreHighErrorRate",
      "StoreSlowResponses",
      "StoreReplicaDown",
      "StoreReplicaNotReady",
      "StorePaymentUnfinished",
      "StoreEmailsFailing",
      "StoreJobQueueGrowing",
      "StoreWebhookVerificationFailures",
      "StoreMemoryHigh",
      "StoreEventLoopLag",
    ]) {
      expect(byName.has(name), name).toBe(true);
    }
    expect(byName.get("StoreHighErrorRate")?.expr).toContain('store_http_request_duration_seconds_count{status_class="5xx"}');
    expect(byName.get("StoreSlowResponses")?.expr).toContain(
      "histogram_quantile(0.99, sum by (le) (rate(store_http_request_duration_seconds_bucket[10m]))) > 2",
    );
    expect(byName.get("StoreReplicaDown")?.expr).toBe('up{job="store"} == 0');
    expect(byName.get("StoreReplicaNotReady")?.expr).toBe("store_ready == 0");
    expect(byName.get("StorePaymentUnfinished")?.expr).toBe("max(store_payment_oldest_unfinished_attempt_age_seconds) > 1800");
    expect(byName.get("StoreMemoryHigh")?.expr).toContain("process_resident_memory_bytes");
    expect(byName.get("StoreEventLoopLag")?.expr).toContain("nodejs_eventloop_lag_p99_seconds");
  });

  it("reads only series the store exports", () => {
    for (const rule of rules) {
      const names = seriesNames(rule.expr);
      expect(names.length, rule.alert).toBeGreaterThan(0);
      for (const name of names) expect(queryable, `${rule.alert} reads ${name}`).toContain(name);
    }
  });
});

describe("deploy/grafana/dashboards/store.json", () => {
  it("is the Store dashboard, with a row for each part of the store", () => {
    expect(dashboard.uid).toBe("store");
    expect(dashboard.title).toBe("Store");
    expect(panels.filter((panel) => panel.type === "row").map((panel) => panel.title)).toEqual([
      "Traffic",
      "Latency",
      "Errors",
      "Cache",
      "Render time",
      "Memory",
      "Event loop lag",
      "Money",
      "Mail and jobs",
      "Protection",
    ]);
  });

  it("queries the provisioned Prometheus in every panel", () => {
    const queried = panels.filter((panel) => panel.type !== "row");
    expect(queried.length).toBeGreaterThan(0);
    for (const panel of queried) {
      expect(panel.datasource, panel.title).toEqual({ type: "prometheus", uid: "prometheus" });
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) expect(target.datasource, panel.title).toEqual({ type: "prometheus", uid: "prometheus" });
    }
  });

  it("reads only series the store exports", () => {
    for (const { panel, expr } of panelQueries) {
      const names = seriesNames(expr);
      expect(names.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      for (const name of names) expect(queryable, `${panel} reads ${name}`).toContain(name);
    }
  });
});

const promtoolMissing = spawnSync("promtool", ["--version"]).status !== 0;
if (promtoolMissing) console.log("deploy/prometheus not checked by promtool: it is not installed (apt-get install -y prometheus)");

describe.skipIf(promtoolMissing)("promtool", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "promtool-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const promtool = (...args: string[]) => spawnSync("promtool", args, { encoding: "utf8" });

  it("accepts the alerting rules and the configuration", () => {
    const rulesCheck = promtool("check", "rules", "deploy/prometheus/alerts.yml");
    expect(rulesCheck.status, rulesCheck.stdout + rulesCheck.stderr).toBe(0);
    const configCheck = promtool("check", "config", "deploy/prometheus/prometheus.yml");
    expect(configCheck.status, configCheck.stdout + configCheck.stderr).toBe(0);
  });

  it("parses every dashboard query", () => {
    // As recording rules, Grafana's $__rate_interval replaced by a duration.
    const recorded = panelQueries.map(({ expr }, index) => ({
      record: `dashboard:query_${index}`,
      expr: expr.replaceAll("$__rate_interval", "1m"),
    }));
    const file = path.join(scratch, "dashboard-queries.yml");
    writeFileSync(file, stringify({ groups: [{ name: "dashboard", rules: recorded }] }));
    const check = promtool("check", "rules", file);
    expect(check.status, check.stdout + check.stderr).toBe(0);
  });

  it("fires the alerts on made-up series, and not below their thresholds", () => {
    // The rules without their annotations: promtool would otherwise want each rendered text spelled out.
    const bare = path.join(scratch, "alerts.yml");
    writeFileSync(
      bare,
      stringify({ groups: alertGroups.map((group) => ({ ...group, rules: group.rules.map(({ annotations: _, ...rule }) => rule) })) }),
    );
    const requests = (status: string, perMinute: number) => ({
      series: `store_http_request_duration_seconds_count{job="store",instance="a",route="root",method="GET",status_class="${status}"}`,
      values: `0+${perMinute}x40`,
    });
    const emails = (outcome: string, perMinute: number) => ({
      series: `store_emails_total{job="store",instance="a",outcome="${outcome}"}`,
      values: `0+${perMinute}x40`,
    });
    const at = (minutes: number, alertname: string, expected: Record<string, string>[]) => ({
      eval_time: `${minutes}m`,
      alertname,
      exp_alerts: expected.map((labels) => ({ exp_labels: labels })),
    });
    const tests = [
      // 3% of 100 requests a minute fail: fires once it has lasted 5 minutes.
      {
        interval: "1m",
        input_series: [requests("5xx", 3), requests("2xx", 97), { series: 'up{job="store",instance="a"}', values: "1x40" }],
        alert_rule_test: [
          at(4, "StoreHighErrorRate", []),
          at(15, "StoreHighErrorRate", [{ severity: "page" }]),
          at(15, "StoreNoReplicaUp", []),
          at(15, "StoreReplicaDown", []),
        ],
      },
      // 1% fail, or 3 of 6 requests a minute: neither is an alert.
      { interval: "1m", input_series: [requests("5xx", 1), requests("2xx", 99)], alert_rule_test: [at(15, "StoreHighErrorRate", [])] },
      { interval: "1m", input_series: [requests("5xx", 3), requests("2xx", 3)], alert_rule_test: [at(15, "StoreHighErrorRate", [])] },
      // A replica stops answering; then none is left.
      {
        interval: "1m",
        input_series: [{ series: 'up{job="store",instance="a"}', values: "1 1 1 0x10" }],
        alert_rule_test: [
          at(4, "StoreReplicaDown", []),
          at(8, "StoreReplicaDown", [{ severity: "ticket", job: "store", instance: "a" }]),
          at(8, "StoreNoReplicaUp", [{ severity: "page" }]),
        ],
      },
      // Mail fails and none is sent; over half fails; a few failures among many sent.
      { interval: "1m", input_series: [emails("failed", 1)], alert_rule_test: [at(20, "StoreEmailsFailing", [{ severity: "ticket" }])] },
      { interval: "1m", input_series: [emails("given_up", 1)], alert_rule_test: [at(20, "StoreEmailsFailing", [{ severity: "ticket" }])] },
      {
        interval: "1m",
        input_series: [emails("failed", 2), emails("sent", 1)],
        alert_rule_test: [at(20, "StoreEmailsFailing", [{ severity: "ticket" }])],
      },
      { interval: "1m", input_series: [emails("failed", 1), emails("sent", 10)], alert_rule_test: [at(20, "StoreEmailsFailing", [])] },
      // The queue has held over 100 jobs for 15 minutes.
      {
        interval: "1m",
        input_series: [
          { series: 'store_job_queue_depth{job="store",instance="a",queue="email"}', values: "150x30" },
          { series: 'store_job_queue_depth{job="store",instance="b",queue="email"}', values: "150x30" },
          { series: 'store_job_queue_depth{job="store",instance="a",queue="sweep"}', values: "3x30" },
        ],
        alert_rule_test: [at(10, "StoreJobQueueGrowing", []), at(20, "StoreJobQueueGrowing", [{ severity: "ticket", queue: "email" }])],
      },
    ];
    const file = path.join(scratch, "alerts.test.yml");
    writeFileSync(file, stringify({ rule_files: [bare], evaluation_interval: "1m", tests }));
    const run = promtool("test", "rules", file);
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });
});
