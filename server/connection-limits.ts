import type { Socket } from "node:net";
import type { Server } from "node:http";
import { parseConfig, type Config } from "../app/config.server";
import { addressKey } from "../app/http/client-address";
import { quietCounter } from "../app/http/quiet-log";

type LimitKeys = "HEADERS_TIMEOUT_MS" | "REQUEST_TIMEOUT_MS" | "KEEP_ALIVE_TIMEOUT_MS" | "MAX_CONNECTIONS" | "MAX_CONNECTIONS_PER_ADDRESS";

export type ConnectionSettings = Pick<Config, "TRUSTED_PROXIES"> & Partial<Pick<Config, LimitKeys>>;

export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  /** 0: no cap per address. */
  maxConnectionsPerAddress: number;
}

/** Connections one client address may hold open when the store faces clients itself. */
export const DEFAULT_CONNECTIONS_PER_ADDRESS = 256;

/**
 * Connections the kernel queues before the process accepts them (Node's default is 511). A burst of
 * connections (an attack, or many shoppers at once) past the queue has its connection attempts dropped,
 * and a client caught in it, whoever it is, waits a whole second for its retry. Linux caps it at
 * net.core.somaxconn (4096 by default).
 */
export const LISTEN_BACKLOG = 4_096;

/** How often Node looks for connections past their header or request timeout (its default, 30 s, would let them live 40 s). */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

/**
 * The last tenth of MAX_CONNECTIONS is kept for addresses holding fewer than this many: addresses
 * that each fill their own cap cannot together fill the process's, and a new client still gets in.
 */
const RESERVED_SHARE = 0.1;
const LIGHT_CLIENT_CONNECTIONS = 8;

/**
 * The limits from the configuration (keys left out take the configuration's
 * defaults). Behind a trusted proxy every connection comes from the proxy, so
 * there is no cap per address unless MAX_CONNECTIONS_PER_ADDRESS sets one.
 */
export function connectionLimitsFor(settings: ConnectionSettings): ConnectionLimits {
  const defaults = parseConfig({});
  return {
    headersTimeoutMs: settings.HEADERS_TIMEOUT_MS ?? defaults.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: settings.REQUEST_TIMEOUT_MS ?? defaults.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: settings.KEEP_ALIVE_TIMEOUT_MS ?? defaults.KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: settings.MAX_CONNECTIONS ?? defaults.MAX_CONNECTIONS,
    maxConnectionsPerAddress: settings.MAX_CONNECTIONS_PER_ADDRESS ?? (settings.TRUSTED_PROXIES > 0 ? 0 : DEFAULT_CONNECTIONS_PER_ADDRESS),
  };
}

/** The options http.createServer takes for these limits. */
export function serverTimeouts(limits: ConnectionLimits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
  };
}

/**
 * Caps open connections in all and per client address, so one client holding
 * thousands of connections open (slowloris) cannot take the process's file
 * descriptors from everyone else: a connection over a cap is closed as soon
 * as it is accepted, before a byte is read. Once the process is near its cap,
 * only addresses holding a few connections get more (RESERVED_SHARE).
 */
export function capConnections(
  server: Server,
  limits: ConnectionLimits,
  warn: (msg: string, fields: Record<string, unknown>) => void,
): void {
  server.maxConnections = limits.maxConnections;
  const refusals = quietCounter(warn);
  server.on("drop", () => refusals.count("connection refused: the process holds MAX_CONNECTIONS", { limit: limits.maxConnections }));
  if (limits.maxConnectionsPerAddress <= 0) return;

  const reservedFrom = Math.floor(limits.maxConnections * (1 - RESERVED_SHARE));
  const open = new Map<string, number>();
  let total = 0;
  server.on("connection", (socket: Socket) => {
    const key = addressKey(socket.remoteAddress);
    const held = open.get(key) ?? 0;
    if (held >= limits.maxConnectionsPerAddress) {
      refusals.count("connection refused: too many open from one address", { limit: limits.maxConnectionsPerAddress });
      socket.destroy();
      return;
    }
    if (total >= reservedFrom && held >= LIGHT_CLIENT_CONNECTIONS) {
      refusals.count("connection refused: the process is nearly full and this address holds its share", { held });
      socket.destroy();
      return;
    }
    open.set(key, held + 1);
    total++;
    socket.once("close", () => {
      total--;
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
