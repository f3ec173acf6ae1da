import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAT_RATE_LIMIT } from "~/chat/rate-limit.server";
import type { StoreServer } from "../e2e/support/store-server";
import { recordFigures } from "./support/figures";
import { createScratchDatabase, missingPostgres, type ScratchDatabase } from "./support/databases";
import { startRoundRobin, type RoundRobin } from "./support/round-robin";
import { approve, confirm, csrfOf, PRODUCT_KEYS, Shopper, signInStaff, startPurchase } from "./support/shopper";
import { prepareDatabase, STAFF, startStore } from "./support/stores";

/**
 * Two store processes on one PostgreSQL behind a
 * round-robin balancer, as the README's deployment (N stateless instances
 * behind a load balancer) has them. Every request of a shopper goes to the
 * other process than the one before, so anything kept in one process's
 * memory shows up as a failure here.
 */

const noPostgres = await missingPostgres();
if (noPostgres) console.log(`Skipping two store processes behind a balancer: ${noPostgres}.`);

describe.skipIf(noPostgres !== null)("two store processes behind a round-robin balancer", () => {
  let database: ScratchDatabase;
  let balancer: RoundRobin;
  const stores: StoreServer[] = [];

  beforeAll(async () => {
    database = await createScratchDatabase(undefined, "servers");
    await prepareDatabase(database.url);
    balancer = await startRoundRobin();
    // One after the other: the first loads the catalog, the second finds it loaded.
    for (let index = 0; index < 2; index++) {
      // Real limits here: the test checks that the processes share them.
      const store = await startStore(database.url, { publicBaseUrl: balancer.url, env: { RATE_LIMIT_SCALE: "1" } });
      stores.push(store);
      balancer.add(store.baseURL);
    }
  });

  afterAll(async () => {
    if (balancer) recordFigures("servers", { requestsPerProcess: balancer.counts() });
    await Promise.all(stores.map((store) => store.stop()));
    await balancer?.close();
    await database?.drop();
  });

  it("alternates requests between the processes", async () => {
    const before = balancer.counts();
    const shopper = new Shopper(balancer.url);
    for (let index = 0; index < 4; index++) expect((await shopper.get("/healthz")).status).toBe(200);
    const after = balancer.counts();
    expect(after.map((count, index) => count - before[index])).toEqual([2, 2]);
  });

  it("keeps the cart: added on one process, shown and checked out on the other", async () => {
    const shopper = new Shopper(balancer.url);
    balancer.pinNext(0);
    const added = await shopper.post("/cart", {
      intent: "add",
      productKey: PRODUCT_KEYS[0],
      quantity: "2",
      redirectTo: "/cart",
      mode: "document",
    });
    expect(added.status).toBe(303);
    const cart = await shopper.get("/cart"); // process 2
    expect(cart.status).toBe(200);
    expect(cart.body).toContain('data-testid="cart-badge"');
    expect(cart.body).toMatch(/data-testid="cart-badge"[^>]*>2</);
  });

  it("records one order when the same approved payment comes back on both processes at once", async () => {
    const shopper = new Shopper(balancer.url);
    const purchase = await startPurchase(shopper, `both-${Date.now()}@example.com`);
    const returnPath = await approve(shopper, purchase.paymentId);
    // The shopper's return and a retry (or a webhook) reach both processes at the same moment.
    const [first, second] = await Promise.all(stores.map((store) => confirm(shopper.copy(store.baseURL), returnPath)));
    expect(first.orderId).toMatch(/^[2-9A-HJ-NP-Z]{10}$/);
    expect(second.orderId).toBe(first.orderId);
    // And once more later, through the balancer.
    expect((await confirm(shopper, returnPath)).orderId).toBe(first.orderId);
    const orders = await database.sql`select order_id from orders where customer->>'email' = ${purchase.email}`;
    expect(orders.map((row) => row.order_id)).toEqual([first.orderId]);
  });

  it("signs staff in on one process and out on the other; a copied session cookie is then refused by both", async () => {
    const staff = new Shopper(balancer.url);
    await signInStaff(staff, STAFF.email, STAFF.password);
    for (const store of stores) expect((await staff.copy(store.baseURL).get("/dashboard")).status).toBe(200);

    // Someone copied the cookie while it was valid.
    const copied = staff.copy();
    balancer.pinNext(0);
    const logoutPage = await staff.get("/logout");
    expect(logoutPage.status).toBe(200);
    const signedOut = await staff.post("/logout", { csrf: csrfOf(logoutPage.body) }); // process 2
    expect(signedOut.status).toBe(303);

    for (const store of stores) {
      const answer = await copied.copy(store.baseURL).get("/dashboard");
      // Needs sessions recorded on the server: with cookie-only sessions the copy still works.
      expect(answer.status, `the copied cookie still opens /dashboard on ${store.baseURL}`).toBe(303);
      expect(answer.location).toMatch(/^\/login/);
    }
  });

  it("shares the chat rate limit: the processes together allow no more than one process would", async () => {
    const visitor = new Shopper(balancer.url);
    const statuses: number[] = [];
    for (let index = 0; index < CHAT_RATE_LIMIT * 2 + 2; index++) {
      const answer = await visitor.post("/chatbot", {
        intent: "message",
        text: `Do you ship grill number ${index}?`,
        mode: "fetch",
        seq: String(index),
      });
      statuses.push(answer.status);
    }
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    const allowed = statuses.filter((status) => status < 400).length;
    expect(statuses).toContain(429);
    // A limit kept in each process's memory lets twice as many through behind two processes. The
    // first message, sent before the conversation exists, is counted under the client address.
    expect(allowed, `statuses: ${statuses.join(" ")}`).toBeLessThanOrEqual(CHAT_RATE_LIMIT + 1);
  });
});
