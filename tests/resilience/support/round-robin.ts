import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface RoundRobin {
  /** e.g. http://127.0.0.1:41234: what shoppers (and PUBLIC_BASE_URL) use. */
  readonly url: string;
  /** Adds a store process behind the balancer (its base URL). */
  add(upstream: string): void;
  /** How many requests each upstream answered, in the order they were added. */
  counts(): number[];
  /** The next request goes to this upstream (0-based), then round robin goes on from there. */
  pinNext(index: number): void;
  close(): Promise<void>;
}

/**
 * The load balancer in front of several store processes: each request goes to
 * the next process in turn, so two requests in a row from one shopper land on
 * different processes. It adds the usual X-Forwarded-For hop, as a real one does.
 */
export async function startRoundRobin(): Promise<RoundRobin> {
  const upstreams: { url: URL; count: number }[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;

  const server = createServer((req, res) => {
    if (upstreams.length === 0) {
      res.writeHead(502).end("no upstream");
      return;
    }
    const upstream = upstreams[next % upstreams.length];
    next = (next + 1) % upstreams.length;
    upstream.count++;
    const headers: IncomingHttpHeaders = { ...req.headers, "x-forwarded-for": req.socket.remoteAddress ?? "127.0.0.1" };
    const proxied = httpRequest(
      { host: upstream.url.hostname, port: upstream.url.port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    proxied.on("error", () => {
      // An upstream that drops the connection is what the tests look for: pass the drop on, do not hide it as a 502.
      res.destroy();
    });
    req.pipe(proxied);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    add: (upstream) => upstreams.push({ url: new URL(upstream), count: 0 }),
    counts: () => upstreams.map((upstream) => upstream.count),
    pinNext(index) {
      next = index;
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
