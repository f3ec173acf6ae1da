import type { AppLoadContext } from "@remix-run/node";

/** A route module's loader or action, as the integration tests call it directly. */
export type RouteFn = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;

/** What a loader or action answered: a Response (returned or thrown), `data(...)` with its status, or plain data. */
export type RouteOutcome = { status: number; headers: Headers; data: Record<string, unknown> | null; response: Response | null };

export async function callRoute(
  fn: RouteFn,
  request: Request,
  context: AppLoadContext,
  params: Record<string, string> = {},
): Promise<RouteOutcome> {
  let result: unknown;
  try {
    result = await fn({ request, params, context });
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    result = error;
  }
  if (result instanceof Response) return { status: result.status, headers: result.headers, data: null, response: result };
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = result as { data: Record<string, unknown>; init: ResponseInit | null };
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), data, response: null };
  }
  return { status: 200, headers: new Headers(), data: result as Record<string, unknown>, response: null };
}
