import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenProblem, METRICS_PORT_SETTINGS, portProblem } from "./listen-errors";

let busy: Server;
let busyPort: number;

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  busyPort = (busy.address() as { port: number }).port;
});

afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

describe("portProblem", () => {
  it("says in one line that a port is taken", async () => {
    const problem = await portProblem(busyPort, "127.0.0.1");
    expect(problem).toBe(
      `Port ${busyPort} is already in use by another program. Stop it, or start the store on another port: PORT=3001 npm start`,
    );
  });

  it("finds nothing wrong with a free port, and leaves it free", async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, "127.0.0.1", resolve));
    const port = (free.address() as { port: number }).port;
    await new Promise<void>((resolve) => free.close(() => resolve()));
    expect(await portProblem(port, "127.0.0.1")).toBeNull();
    expect(await portProblem(port, "127.0.0.1")).toBeNull();
  });

  it("says when HOST is not an address of this machine", async () => {
    expect(await portProblem(busyPort, "192.0.2.1")).toMatch(/^Cannot listen on 192\.0\.2\.1:\d+: HOST is not an address of this machine/);
  });
});

describe("listenProblem", () => {
  it("leaves an unexpected error to its stack trace", () => {
    expect(listenProblem(Object.assign(new Error("boom"), { code: "EIO" }), 3000, undefined)).toBeNull();
  });

  it("explains a privileged port", () => {
    expect(listenProblem(Object.assign(new Error("denied"), { code: "EACCES" }), 80, undefined)).toContain("ports below 1024");
  });
});

describe("the metrics port", () => {
  it("names its own settings when taken", async () => {
    expect(await portProblem(busyPort, "127.0.0.1", METRICS_PORT_SETTINGS)).toBe(
      `Port ${busyPort} is already in use by another program. Stop it, or start the store on another port: METRICS_PORT=9465 npm start`,
    );
  });
});
