import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoreServer } from "../e2e/support/store-server";
import { recordFigures } from "./support/figures";
import { DroppedConnection, Shopper } from "./support/shopper";
import { startStoreBehindProxy, type ProxiedStore } from "./support/stores";
import type { TcpProxy } from "./support/tcp-proxy";

/**
 * SIGTERM (a deploy, a scale-down) lets
 * the requests in flight finish, takes no new ones and closes the database
 * pool, so the process ends promptly by itself.
 */

let proxied: ProxiedStore;
let proxy: TcpProxy;
let store: StoreServer;

beforeAll(async () => {
  proxied = await startStoreBehindProxy("shutdown");
  ({ proxy, store } = proxied);
});
afterAll(async () => {
  await proxied?.stop();
});

describe("SIGTERM", () => {
  it("finishes the request in flight, refuses new ones, closes the pool and exits", async () => {
    const shopper = new Shopper(store.baseURL);
    expect((await shopper.get("/products/all/all")).status).toBe(200);

    // A request caught in the middle: its query waits on a stalled database.
    proxy.pause();
    const inFlight = shopper.get("/product/blaze-3159840");
    await new Promise((resolve) => setTimeout(resolve, 500));
    store.signal("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 500));

    const late = await new Shopper(store.baseURL).get("/").then(
      (answer) => `answered ${answer.status}`,
      (error: unknown) => (error instanceof DroppedConnection ? "refused" : String(error)),
    );
    proxy.resume();
    const answer = await inFlight;
    expect(answer.status, "the request in flight finished").toBe(200);
    expect(late, "a new request after SIGTERM").toBe("refused");

    const started = Date.now();
    const exit = await Promise.race([store.exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 15_000))]);
    const exitSeconds = Math.round((Date.now() - started) / 1000);
    recordFigures("shutdown", { inFlightStatus: answer.status, newRequest: late, exit, exitSeconds });
    // The pool is closed, not left to time out: the process ends within seconds, with status 0.
    expect(exit).toBe(0);
    expect(proxy.open, "database connections left open").toBe(0);
  });
});
