import { parseConfig } from "~/config.server";
import type { Runtime } from "~/runtime.server";
import type { TestDatabase } from "./test-database";

export const TEST_ORIGIN = "http://store.test";

/**
 * Points the app's runtime (getDb(), the session secret, the configuration)
 * at a test database, so route loaders and actions can be called directly.
 */
export function useTestRuntime(database: TestDatabase, env: Record<string, string> = {}) {
  const runtime: Runtime = {
    config: parseConfig(env),
    database,
    sessionSecret: "test-secret-that-is-long-enough-0123456789",
  };
  globalThis.__storeRuntime = Promise.resolve(runtime);
  return runtime;
}

export function formData(values: Record<string, string | number>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) form.set(key, String(value));
  return form;
}

export function postRequest(path: string, values: Record<string, string | number>, cookie?: string): Request {
  return new Request(`${TEST_ORIGIN}${path}`, {
    method: "POST",
    body: formData(values),
    headers: cookie ? { Cookie: cookie } : {},
  });
}

/** The name=value part of a Set-Cookie header, for the next request. */
export function cookieFrom(setCookie: string | null): string {
  return (setCookie ?? "").split(";")[0];
}
