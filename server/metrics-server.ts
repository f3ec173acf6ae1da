import { createServer, type Server } from "node:http";
import { collectProcessMetrics, metricsRegistry } from "../app/observability/metrics.server";
import { logError } from "../app/observability/logger.server";

/**
 * The process's Prometheus metrics, on a port of their own (METRICS_PORT,
 * bound to METRICS_HOST, 127.0.0.1 unless told): GET /metrics answers the
 * registry's text, anything else 404. Never on the store's own port, so
 * nothing a shopper or Caddy reaches can read them.
 */
export async function startMetricsServer(port: number, host: string): Promise<Server> {
  collectProcessMetrics();
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not Found\n");
      return;
    }
    metricsRegistry.metrics().then(
      (text) =>
        res
          .writeHead(200, { "Content-Type": metricsRegistry.contentType, "Cache-Control": "no-store" })
          .end(req.method === "HEAD" ? undefined : text),
      (error: unknown) => {
        logError("metrics could not be collected", error);
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Metrics could not be collected.\n");
      },
    );
  });
  // Slow or idle scrapers cannot hold the port.
  server.headersTimeout = 5_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}
