import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port";

/**
 * The production server as `npm start` runs it (build/server.js serving
 * build/index.js), in its own process: the page's CSP nonce on every script
 * Remix renders, a 40 MB post that does not grow the process, and SIGTERM
 * letting a request in flight finish before the process exits 0, and the
 * one-line answers to everyday start-up mistakes. Builds first when the build
 * is missing or older than the sources (about a minute).
 */

let child: ChildProcess;
let baseURL: string;
let output = "";
let exited: Promise<number | null>;
let metricsURL: string;

beforeAll(async () => {
  if (buildIsStale())
    execFileSync("npm", ["run", "build"], { stdio: "ignore", timeout: 240_000, env: { ...process.env, NODE_ENV: "production" } });
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  const metricsPort = await freePort();
  metricsURL = `http://127.0.0.1:${metricsPort}/metrics`;
  child = spawn(process.execPath, ["build/server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      METRICS_PORT: String(metricsPort),
      PGLITE_DIR: `memory://built-server-${port}`,
      PUBLIC_BASE_URL: baseURL,
      DATABASE_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  await waitForHealth();
}, 360_000);

afterAll(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
});

describe("the built server", () => {
  it("reports each start-up step with its time, then says it is ready, and is", async () => {
    const steps = [...output.matchAll(/^ {2}(\w+) +.* \(\d+\.\d s\)$/gm)].map((match) => match[1]);
    expect(steps).toEqual(["build", "database", "migrations", "catalogue", "staff", "links", "payments", "tax", "jobs"]);
    expect(output).toMatch(/^ {2}catalogue +2,5\d\d products loaded/m);
    expect(output).toContain("TEST PAYMENTS: orders are approved without charging anyone");
    // Beside it, the offline tax table says it is one, and where a fresh clone charges tax.
    expect(output).toMatch(/tax\s+OFFLINE TAX TABLE .*charging sales tax in CA, NY, TN, WA only; DEMO STATES/);
    expect(output).toMatch(new RegExp(`^Store ready at http://127\\.0\\.0\\.1:${new URL(baseURL).port} \\(\\d+\\.\\d s\\)$`, "m"));
    const readiness = await fetch(`${baseURL}/readyz`);
    expect(readiness.status).toBe(200);
    expect(await readiness.json()).toEqual({ status: "ready" });
  });

  it("refuses to start in one line on a busy port or a bad PORT, before doing anything else", async () => {
    const busy = await startAttempt({ PORT: new URL(baseURL).port });
    expect(busy).toEqual({
      code: 1,
      output: `Port ${new URL(baseURL).port} is already in use by another program. Stop it, or start the store on another port: PORT=3001 npm start\n`,
    });
    expect(await startAttempt({ PORT: "abc" })).toEqual({
      code: 1,
      output: "Configuration error: PORT must be a port number from 1 to 65535.\n",
    });
  });

  it.skipIf(!olderNode)("refuses an old Node.js in one line naming the version it needs", async () => {
    const attempt = await startAttempt({}, olderNode!);
    expect(attempt.code).toBe(1);
    expect(attempt.output).toMatch(
      /^The store needs Node\.js 22\.12 or newer \(24 LTS recommended\); this is Node\.js \d+\.\d+\.\d+\. .*\n$/,
    );
    expect(attempt.output.split("\n")).toHaveLength(2);
  });

  it("serves its metrics on their own port only: /metrics on the store's port is 404", async () => {
    await (await fetch(`${baseURL}/`)).text();
    expect((await fetch(`${baseURL}/metrics`)).status).toBe(404);
    const answer = await fetch(metricsURL);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).toMatch(/^store_http_request_duration_seconds_count\{route="routes\/_index",method="GET",status_class="2xx"\} [1-9]/m);
    expect(text).toMatch(/^store_ready 1$/m);
    expect(text).toMatch(/^store_job_queue_depth\{queue="email\.deliver"\} \d+$/m);
    expect(text).toMatch(/^store_payment_oldest_unfinished_attempt_age_seconds \d/m);
    expect(text).toContain("# TYPE process_resident_memory_bytes gauge");
  });

  it("answers an unsigned or mis-signed PayPal, Authorize.Net or EasyPost webhook 400, never 404", async () => {
    const body = JSON.stringify({ id: "WH-1", event_type: "PAYMENT.CAPTURE.COMPLETED", resource: { id: "x" } });
    const attempts = [
      ["/api/paypal/webhook", {}],
      ["/api/paypal/webhook", { "paypal-transmission-sig": "forged", "paypal-transmission-id": "1", "paypal-auth-algo": "SHA256withRSA" }],
      ["/api/authorizenet/webhook", {}],
      ["/api/authorizenet/webhook", { "x-anet-signature": `sha512=${"0".repeat(128)}` }],
      ["/api/easypost/webhook", {}],
      ["/api/easypost/webhook", { "x-hmac-signature": `hmac-sha256-hex=${"0".repeat(64)}` }],
    ] as const;
    for (const [target, headers] of attempts) {
      const response = await fetch(`${baseURL}${target}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body,
      });
      expect(response.status, `${target} ${JSON.stringify(headers)}`).toBe(400);
    }
  });

  it("gives every script of a page the nonce its Content-Security-Policy names", async () => {
    for (const pagePath of ["/", "/cart", "/product/blaze-3159840"]) {
      const response = await fetch(`${baseURL}${pagePath}`);
      expect(response.status, pagePath).toBe(200);
      const policy = response.headers.get("content-security-policy") ?? "";
      const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
      expect(nonce, pagePath).toBeTruthy();
      expect(policy).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      const html = await response.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]);
      // Data blocks (JSON, JSON-LD) never run; every other script must carry the nonce.
      const executable = scripts.filter((attributes) => !/type="application\/(ld\+)?json"/.test(attributes));
      expect(executable.length, pagePath).toBeGreaterThan(0);
      for (const attributes of executable) expect(attributes, pagePath).toContain(`nonce="${nonce}"`);
    }
    const again = await fetch(`${baseURL}/`);
    expect(again.headers.get("content-security-policy")).not.toBe((await fetch(`${baseURL}/`)).headers.get("content-security-policy"));
  });

  it("refuses a 40 MB post with 413 and does not grow", async () => {
    const before = residentBytes();
    const status = await postDeclared("/newsletter", 40 * 1024 * 1024);
    // The server closes the connection after its answer; a client still writing may see the reset before the 413.
    if (status === "reset") {
      await expect
        .poll(() =>
          jsonLines()
            .filter((line) => line.path === "/newsletter")
            .map((line) => line.status),
        )
        .toEqual([413]);
    } else expect(status).toBe(413);
    const after = residentBytes();
    expect(after - before).toBeLessThan(20 * 1024 * 1024);
  });

  it("answers oversized chunked form posts 413 and logs them as the client's, without an error or a stack", async () => {
    const paths = ["/cart", "/contact", "/checkout", "/login", "/compare"];
    for (const target of paths) expect([413, "reset"], target).toContain(await postChunked(target, 2 * 1024 * 1024));
    await expect
      .poll(() => jsonLines().filter((line) => paths.includes(line.path as string) && line.msg === "request").length)
      .toBe(paths.length);
    // A render the server stopped because its answer was already sent is nobody's error.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(output).not.toContain("The render was aborted");
    expect(jsonLines().filter((line) => line.level === "error" && paths.includes(line.path as string))).toEqual([]);
  });

  it("logs each request as one JSON line", async () => {
    const response = await fetch(`${baseURL}/healthz?token=abc`);
    const id = response.headers.get("x-request-id");
    const line = () => jsonLines().find((entry) => entry.requestId === id);
    await expect.poll(line).toMatchObject({ msg: "request", method: "GET", path: "/healthz", status: 200 });
    expect(JSON.stringify(line())).not.toContain("abc");
  });

  it("on SIGTERM finishes the request in flight, refuses new ones, closes the database and exits 0", async () => {
    // A body sent slowly keeps the request in flight: the webhook route reads it whole before it answers.
    const body = JSON.stringify({ id: "evt_slow", padding: "x".repeat(100) });
    const req = httpRequest(`${baseURL}/api/stripe/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) },
    });
    const answer = new Promise<{ status: number; connection?: string }>((resolve, reject) => {
      req.on("response", (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      });
      req.on("error", reject);
    });
    await new Promise<void>((resolve) => req.write(body.slice(0, 10), () => resolve()));
    // The server reads what reached it first first: once it has answered a later request, this one is in flight.
    expect((await fetch(`${baseURL}/healthz`)).ok).toBe(true);
    child.kill("SIGTERM");
    // New connections are refused from now on, however long the process takes to get there.
    await expect
      .poll(() =>
        fetch(`${baseURL}/healthz`).then(
          () => "answered",
          () => "refused",
        ),
      )
      .toBe("refused");
    req.end(body.slice(10));

    const finished = await answer;
    expect(finished.status).toBe(404); // "Stripe webhooks are not configured.": the route ran to its end
    expect(finished.connection).toBe("close");
    expect(await exited).toBe(0);
    expect(jsonLines().map((line) => line.msg)).toEqual(
      expect.arrayContaining(["shutting down: no new connections, finishing requests in flight", "stopped"]),
    );
  });
});

/** The machine's own Node.js when it is older than the store allows (Debian's Node 20 here), to check the refusal from outside. */
const olderNode = (() => {
  if (!existsSync("/usr/bin/node")) return null;
  const version = execFileSync("/usr/bin/node", ["--version"], { encoding: "utf8" }).trim();
  const [major, minor] = version.slice(1).split(".").map(Number);
  return major < 22 || (major === 22 && minor < 12) ? "/usr/bin/node" : null;
})();

/** Starts the built server expecting it to refuse: its exit code and everything it printed. */
function startAttempt(env: Record<string, string>, node = process.execPath): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const attempt = spawn(node, ["build/server.js"], {
      env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PGLITE_DIR: "memory://refused", DATABASE_URL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let printed = "";
    attempt.stdout!.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    attempt.stderr!.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    const timer = setTimeout(() => attempt.kill("SIGKILL"), 30_000);
    attempt.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output: printed });
    });
  });
}

function jsonLines(): Array<Record<string, unknown>> {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function residentBytes(): number {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** A form post of `size` bytes without Content-Length (chunked), as a browser's page would send it, until the server answers. */
function postChunked(target: string, size: number): Promise<number | "reset"> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseURL}${target}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" },
    });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code === "EPIPE" || error.code === "ECONNRESET") resolve("reset");
      else reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    let written = 0;
    const pump = () => {
      while (!answered && written < size) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/** Declares `size` bytes and writes them as fast as the server takes them, until it answers. */
function postDeclared(target: string, size: number): Promise<number | "reset"> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, "a");
    let written = 0;
    let answered = false;
    const req = httpRequest(`${baseURL}${target}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(size) },
    });
    req.on("response", (res) => {
      answered = true;
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code === "EPIPE" || error.code === "ECONNRESET") resolve("reset");
      else reject(error);
    });
    const pump = () => {
      while (!answered && written < size) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
    };
    pump();
  });
}

async function waitForHealth() {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${baseURL}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not become healthy:\n${output}`);
}

/** True when build/ is missing, a development build, or older than any source file it is made from. */
function buildIsStale(): boolean {
  const outputs = ["build/index.js", "build/server.js"];
  if (!outputs.every((file) => existsSync(file))) return true;
  // A development build (remix dev) is no production build either.
  if (readFileSync("build/index.js", "utf8").includes("jsxDEV")) return true;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return ["app", "server"].some((dir) => newestIn(dir) > built);
}

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(full) : statSync(full).mtimeMs);
  }
  return newest;
}
