/**
 * The metrics part of `npm run bench`: what observing every request's duration
 * and render time (server/request-metrics.ts) costs a render. The production
 * build runs twice at once, one process with METRICS_PORT=off and one serving
 * its metrics on a port of its own, and autocannon alternates between them
 * (off, on, on, off, off, on...) on the rows where every request renders, so drift on
 * the machine falls on both alike. Two processes differ by a few percent whatever
 * they run, so the budget (the metrics take at most 3% of a render) is held to the
 * metrics code's own cost, measured in this process (metricsCodeCostUs), against
 * the cheaper row's CPU time per request.
 */
import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { ServerBuild } from "@remix-run/node";
import { markRenderStart, requestMetrics } from "../../server/request-metrics";
import { cpus, loadavg } from "node:os";
import { cannon, formatCacheAnswers, probeRequests, stats, type CacheAnswers, type CannonRun, type Probe } from "./bench-http";
import { DETAIL_PATH, shopperCarts } from "./bench-report";
import { pgliteTarget, startServer, type RunningServer, type ServerTarget } from "./bench-server";
import { formatTable } from "./bundle-size";
import { freePort } from "./free-port";

/** At most this share of a render's throughput may go to the metrics. */
const BUDGET_PERCENT = 3;
const CONNECTIONS = 10;
const WARMUP_S = 2;
/** The table's number columns (all but the row, its path and who answered). */
const RIGHT_ALIGNED = [false, false, true, true, true, true, true, true, true, true, true, false];
const EXPECTED_METRICS = ["store_http_request_duration_seconds_count", "store_render_duration_seconds_count"];

const PROBES: Probe[] = [
  { name: "detail, every request renders", path: DETAIL_PATH, everyRequestRenders: true },
  { name: "home, every request renders", path: "/", everyRequestRenders: true },
];

interface Side {
  label: string;
  target: ServerTarget;
  server?: RunningServer;
  carts: string[];
}

/**
 * A store on a fresh PGlite directory of its own (only one process may open a directory, so the two
 * processes cannot share one): loaded on a first start, then started again to be measured.
 */
async function startSide(sides: Side[], label: string, metricsSetting: string, metricsPort: number): Promise<void> {
  const fresh = pgliteTarget();
  const target: ServerTarget = { ...fresh, env: { ...fresh.env, METRICS_PORT: metricsSetting } };
  const side: Side = { label, target, carts: [] };
  sides.push(side);
  // freePort lets its port go at once: keep clear of the metrics port chosen before.
  let port = await freePort();
  while (port === metricsPort) port = await freePort();
  // The first start loads the catalogue and runs its start-up work; the measured process starts on the loaded database.
  const first = await startServer(target, port);
  await first.stop();
  side.server = await startServer(target, port);
  side.carts = await shopperCarts(side.server.origin);
}

/** The process's CPU time so far in ms (user + system, all its threads; /proc counts in 1/100 s). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(")").pop()!.trim().split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A run, with the server's CPU time per request: other work on the machine slows req/s much more than it changes this. */
type Run = CannonRun & { cpuMsPerRequest: number };

async function measure(side: Side, probe: Probe, durationS: number, answers: CacheAnswers): Promise<Run> {
  const server = side.server!;
  const cpuBefore = cpuMs(server.pid);
  const url = `${server.origin}${probe.path}`;
  const run = await cannon({ url, connections: CONNECTIONS, duration: durationS, requests: probeRequests(probe, side.carts, answers) });
  return { ...run, cpuMsPerRequest: (cpuMs(server.pid) - cpuBefore) / Math.max(1, run.requests) };
}

/**
 * What the request metrics' own code costs a request, measured in this process where nothing else
 * varies: the middleware's close handler (route label, status class, two histogram observations) on
 * 200,000 requests to 50 product pages, each with its own query string, less the same requests
 * without it. Two server processes differ by several percent whatever they run (JIT, GC, their
 * databases), more than the budget: this is the figure the budget is held to.
 */
function metricsCodeCostUs(): number {
  const route = (id: string, path: string | undefined, index?: true) => ({
    id,
    parentId: id === "root" ? undefined : "root",
    path,
    index,
    caseSensitive: undefined,
    module: {} as ServerBuild["routes"][string]["module"],
  });
  const build = {
    publicPath: "/build/",
    basename: undefined,
    future: { v3_singleFetch: true },
    routes: {
      root: route("root", ""),
      "routes/_index": route("routes/_index", undefined, true),
      "routes/product.$productKey": route("routes/product.$productKey", "product/:productKey"),
      "routes/$": route("routes/$", "*"),
    },
  } as unknown as Parameters<typeof requestMetrics>[0];
  const observe = requestMetrics(build);
  const answer = (path: string, withMetrics: boolean) => {
    const req = { url: path, originalUrl: path, method: "GET" } as unknown as IncomingMessage;
    const res = Object.assign(new EventEmitter(), { statusCode: 200 }) as unknown as ServerResponse;
    if (withMetrics) {
      observe(req, res, () => {});
      markRenderStart(res);
    } else res.once("close", () => {});
    res.emit("close");
  };
  const timeOf = (withMetrics: boolean, requests: number) => {
    const started = performance.now();
    for (let i = 0; i < requests; i++) answer(`/product/blaze-${i % 50}?q=${i}`, withMetrics);
    return performance.now() - started;
  };
  timeOf(true, 20_000);
  timeOf(false, 20_000);
  const requests = 200_000;
  return ((timeOf(true, requests) - timeOf(false, requests)) * 1000) / requests;
}

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "-");
const range = (values: readonly number[], digits = 0) => {
  const s = stats(values);
  return values.length > 1 ? `${fixed(s.median, digits)} (${fixed(s.min, digits)}-${fixed(s.max, digits)})` : fixed(s.median, digits);
};

export async function benchMetrics(options: { runs: number; durationS: number }): Promise<boolean> {
  console.log(
    `\n== Metrics: a render with the request metrics off and on (PGlite, ${CONNECTIONS} connections, ` +
      `${options.runs} run(s) of ${options.durationS} s per row after a ${WARMUP_S} s warm-up, alternating off-on, on-off)`,
  );
  const metricsPort = await freePort();
  const loadAtStart = loadavg()[0];
  const sides: Side[] = [];
  try {
    await startSide(sides, "off", "off", metricsPort);
    await startSide(sides, "on", String(metricsPort), metricsPort);
    const rows: string[][] = [];
    const verdicts: string[] = [];
    const cheapestCpu: number[] = [];
    let ok = true;
    for (const probe of PROBES) {
      for (const side of sides) await measure(side, probe, WARMUP_S, {});
      const runs: Record<string, Run[]> = { off: [], on: [] };
      const answers: Record<string, CacheAnswers> = { off: {}, on: {} };
      for (let i = 0; i < options.runs; i++) {
        // Off then on, then on then off: neither side always runs right after the other's load.
        const order = i % 2 === 0 ? sides : [...sides].reverse();
        for (const side of order) runs[side.label].push(await measure(side, probe, options.durationS, answers[side.label]));
      }
      const offRps = stats(runs.off.map((r) => r.rps)).median;
      const onRps = stats(runs.on.map((r) => r.rps)).median;
      const overhead = ((offRps - onRps) / offRps) * 100;
      // Each run beside its neighbour of the other side: drift between pairs cancels out.
      const paired = stats(runs.off.map((r, i) => ((r.rps - runs.on[i].rps) / r.rps) * 100)).median;
      const offRange = stats(runs.off.map((r) => r.rps));
      const spread = ((offRange.max - offRange.min) / offRange.median) * 100;
      const offCpu = stats(runs.off.map((r) => r.cpuMsPerRequest)).median;
      const onCpu = stats(runs.on.map((r) => r.cpuMsPerRequest)).median;
      const cpuOverhead = ((onCpu - offCpu) / offCpu) * 100;
      cheapestCpu.push(offCpu);
      const failed = [...runs.off, ...runs.on].reduce((n, r) => n + r.errors + r.non2xx, 0);
      if (failed > 0 || !Number.isFinite(overhead)) ok = false;
      rows.push([
        probe.name,
        `\`${probe.path}\``,
        range(runs.off.map((r) => r.rps)),
        range(runs.on.map((r) => r.rps)),
        range(
          runs.off.map((r) => r.p99),
          1,
        ),
        range(
          runs.on.map((r) => r.p99),
          1,
        ),
        `${fixed(overhead, 1)}%`,
        range(
          runs.off.map((r) => r.cpuMsPerRequest),
          2,
        ),
        range(
          runs.on.map((r) => r.cpuMsPerRequest),
          2,
        ),
        `${fixed(cpuOverhead, 1)}%`,
        String(failed),
        `off: ${formatCacheAnswers(answers.off)}; on: ${formatCacheAnswers(answers.on)}`,
      ]);
      verdicts.push(
        `${probe.name}: the process with the metrics on answered ${fixed(overhead, 1)}% fewer req/s ` +
          (Math.abs(overhead) <= spread ? "(within the noise" : "(more than the noise") +
          `: median of the paired runs ${fixed(paired, 1)}%; the off runs alone spread over ${fixed(spread, 0)}% of their median; ` +
          `CPU time per request ${cpuOverhead >= 0 ? "+" : ""}${fixed(cpuOverhead, 1)}%)`,
      );
      console.log(
        `  ${probe.name}: off ${fixed(offRps)} req/s, on ${fixed(onRps)} req/s (${fixed(overhead, 1)}%); ` +
          `CPU ${fixed(offCpu, 2)} and ${fixed(onCpu, 2)} ms a request`,
      );
    }
    const codeUs = metricsCodeCostUs();
    const cheapestRenderMs = Math.min(...cheapestCpu);
    const codeShare = (codeUs / 1000 / cheapestRenderMs) * 100;
    if (codeShare > BUDGET_PERCENT) ok = false;
    const rss = sides.map((side) => `${side.label} ${fixed(side.server!.rssMb())} MB`).join(", ");
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
      async (response) => ({ status: response.status, text: await response.text() }),
      (error: unknown) => ({ status: 0, text: String(error) }),
    );
    const missing = EXPECTED_METRICS.filter((name) => !scrape.text.includes(name));
    if (scrape.status !== 200 || missing.length > 0) ok = false;
    console.log(
      formatTable(
        [
          "row",
          "path",
          "req/s off",
          "req/s on",
          "p99 ms off",
          "p99 ms on",
          "overhead",
          "CPU ms/req off",
          "CPU ms/req on",
          "CPU overhead",
          "errors",
          "answered by",
        ],
        rows,
        RIGHT_ALIGNED,
      ),
    );
    console.log(
      `Budget: the request metrics' own code costs ${fixed(codeUs, 1)} µs a request in this process, ${fixed(codeShare, 2)}% of the cheapest ` +
        `render's CPU time (${fixed(cheapestRenderMs, 2)} ms, metrics off): at most ${BUDGET_PERCENT}% ${codeShare <= BUDGET_PERCENT ? "OK" : "OVER BUDGET"}. ` +
        `The two processes below differ by more than that whatever they run; their rows say whether anything else changed.`,
    );
    for (const verdict of verdicts) console.log(verdict);
    console.log(
      `Medians with (min-max) over the runs; overhead = (off - on) / off of the median req/s; CPU ms/req = the server's user + system time over the requests it answered. ` +
        `Each request is a different one of ${sides[0].carts.length} shoppers with her own cart and a query string never sent before. ` +
        `Both processes ran at the same time, each on its own fresh PGlite directory, and the runs alternated off-on, on-off.`,
    );
    console.log(`RSS after the runs: ${rss}.`);
    const load = `load average ${fixed(loadAtStart, 2)} at the start, ${fixed(loadavg()[0], 2)} at the end on ${cpus().length} cores`;
    console.log(
      Math.max(loadAtStart, loadavg()[0]) > cpus().length
        ? `The machine was busy (${load}): an overhead within the spread of the off runs is noise, not the metrics.`
        : `${load[0].toUpperCase()}${load.slice(1)}.`,
    );
    console.log(
      scrape.status === 200 && missing.length === 0
        ? `GET /metrics on port ${metricsPort} (metrics on): 200, with ${EXPECTED_METRICS.join(" and ")}.`
        : `GET /metrics on port ${metricsPort} (metrics on): ${scrape.status || "no answer"}` +
            (missing.length > 0 ? `, MISSING ${missing.join(" and ")}` : "") +
            (scrape.status === 0 ? ` (${scrape.text})` : ""),
    );
    return ok;
  } finally {
    for (const side of sides) {
      await side.server?.stop();
      await side.target.dispose();
    }
  }
}
