import { afterAll, beforeEach } from "vitest";
import type { FakeServer } from "../fakes/fake-http-server";

/**
 * Starts a service's fake (tests/fakes) for the whole test file that awaits it
 * at its top level: reset before each test (default answers, no recorded
 * requests) and closed after the last.
 */
export async function startFakeForFile<Fake extends FakeServer>(start: () => Promise<Fake>): Promise<Fake> {
  const fake = await start();
  beforeEach(() => fake.reset());
  afterAll(() => fake.close());
  return fake;
}
