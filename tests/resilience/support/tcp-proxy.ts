import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  readonly port: number;
  /** A postgres:// URL like `databaseUrl` but through the proxy. */
  urlFor(databaseUrl: string): string;
  /** The outage: every open connection is destroyed and new ones are refused (the port stops listening). */
  cut(): Promise<void>;
  /** The end of it: the port listens again and connections are forwarded. */
  restore(): Promise<void>;
  /** The database stops answering (a stall): nothing is forwarded until resume(), connections stay open. */
  pause(): void;
  resume(): void;
  /** Connections open right now (store side). */
  readonly open: number;
  /** Connections accepted so far (to see that the store reconnected). */
  readonly accepted: number;
  /** Bytes the store sent that a stall holds back (a query waiting for the paused database). */
  readonly stalledBytes: number;
  close(): Promise<void>;
}

/**
 * A small TCP proxy between the store and PostgreSQL, so a test can take the
 * database away from the store (as a restart or a killed connection would)
 * without touching the machine's shared server.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  let accepted = 0;
  let paused = false;
  const clients = new Set<Socket>();

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        accepted++;
        const upstream = createConnection(target);
        sockets.add(client);
        sockets.add(upstream);
        clients.add(client);
        if (paused) client.pause();
        const drop = () => {
          clients.delete(client);
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on("error", drop).on("close", drop);
        upstream.on("error", drop).on("close", drop);
        client.pipe(upstream);
        upstream.pipe(client);
        if (paused) client.pause();
      });
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => {
        const address = next.address();
        if (typeof address === "object" && address) port = address.port;
        server = next;
        resolve();
      });
    });

  const stopListening = () =>
    new Promise<void>((resolve) => {
      const current = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      clients.clear();
      if (!current) return resolve();
      current.close(() => resolve());
    });

  await listen();
  return {
    get port() {
      return port;
    },
    get open() {
      return clients.size;
    },
    pause() {
      paused = true;
      for (const client of clients) client.pause();
    },
    resume() {
      paused = false;
      for (const client of clients) client.resume();
    },
    get stalledBytes() {
      return [...clients].reduce((bytes, client) => bytes + client.readableLength, 0);
    },
    get accepted() {
      return accepted;
    },
    urlFor(databaseUrl: string) {
      const url = new URL(databaseUrl);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    cut: stopListening,
    async restore() {
      if (!server) await listen();
    },
    close: stopListening,
  };
}
