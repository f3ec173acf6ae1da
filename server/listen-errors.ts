import { createServer } from "node:net";

/** The settings a listen problem names. */
export interface ListenSettings {
  port: string;
  host: string;
  example: number;
  /** The port a busy one's message suggests. */
  alternative: number;
  hostAdvice: string;
}

const STORE_PORT: ListenSettings = {
  port: "PORT",
  host: "HOST",
  example: 3000,
  alternative: 3001,
  hostAdvice: "Leave HOST unset to listen on every interface.",
};

/** The metrics port's settings (server/metrics-server.ts). */
export const METRICS_PORT_SETTINGS: ListenSettings = {
  port: "METRICS_PORT",
  host: "METRICS_HOST",
  example: 9464,
  alternative: 9465,
  hostAdvice: "Leave METRICS_HOST unset to listen on 127.0.0.1 only.",
};

/**
 * Why the server could not listen, in one line a person can act on, or null
 * for an error nobody expects (then the stack is worth seeing).
 */
export function listenProblem(
  error: NodeJS.ErrnoException,
  port: number,
  host: string | undefined,
  settings: ListenSettings = STORE_PORT,
): string | null {
  const where = host ? `${host}:${port}` : `port ${port}`;
  switch (error.code) {
    case "EADDRINUSE":
      return `Port ${port} is already in use by another program. Stop it, or start the store on another port: ${settings.port}=${settings.alternative} npm start`;
    case "EACCES":
      return `Not allowed to listen on ${where}: ports below 1024 need extra rights. Use a port such as ${settings.example} (${settings.port}=${settings.example}).`;
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return `Cannot listen on ${where}: ${settings.host} is not an address of this machine. ${settings.hostAdvice}`;
    default:
      return null;
  }
}

/**
 * Checks the port can be taken before the store spends seconds starting up, so
 * a busy port is said at once. The server takes it for real once the store is
 * ready; in between another program may take it, which listen() then reports.
 */
export function portProblem(port: number, host: string | undefined, settings: ListenSettings = STORE_PORT): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      const problem = listenProblem(error, port, host, settings);
      if (problem) resolve(problem);
      else reject(error);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}
