import type { Server } from "node:http";

export interface ShutdownOptions {
  /** How long in-flight requests may take before their connections are cut. */
  drainTimeoutMs: number;
  /** Closes what the app holds (the database pool) once no request is left. */
  closeResources: () => Promise<void>;
  log: (message: string, fields?: Record<string, unknown>) => void;
  exit: (code: number) => void;
}

/**
 * SIGTERM (a deploy, `docker stop`) or SIGINT (Ctrl-C): stop accepting
 * connections, let the requests in flight finish (their answers say
 * Connection: close), cut whatever is left after the drain timeout, close
 * the database pool and exit 0. A second signal exits at once with 1.
 */
export function installGracefulShutdown(
  server: Server,
  options: ShutdownOptions,
): { isClosing: () => boolean; shutdown: (signal: string) => Promise<void> } {
  let closing = false;

  async function shutdown(signal: string) {
    if (closing) {
      options.log("second signal: exiting now", { signal });
      options.exit(1);
      return;
    }
    closing = true;
    options.log("shutting down: no new connections, finishing requests in flight", { signal });
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const idleSweep = setInterval(() => server.closeIdleConnections(), 250);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), options.drainTimeoutMs);
    });
    const outcome = await Promise.race([drained.then(() => "drained" as const), timedOut]);
    clearInterval(idleSweep);
    clearTimeout(timer);
    if (outcome === "timeout") {
      options.log("drain timeout: closing the connections still open", { timeoutMs: options.drainTimeoutMs });
      server.closeAllConnections();
    }
    try {
      await options.closeResources();
    } catch (error) {
      options.log("closing the database failed", { error: error instanceof Error ? error.message : String(error) });
    }
    options.log("stopped");
    options.exit(0);
  }

  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void shutdown(signal));
  return { isClosing: () => closing, shutdown };
}
