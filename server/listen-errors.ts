import { createServer } from "node:net";

/**
 * Why the server could not listen, in one line a person can act on, or null
 * for an error nobody expects (then the stack is worth seeing).
 */
export function listenProblem(error: NodeJS.ErrnoException, port: number, host: string | undefined): string | null {
  const where = host ? `${host}:${port}` : `port ${port}`;
  switch (error.code) {
    case "EADDRINUSE":
      return `Port ${port} is already in use by another program. Stop it, or start the store on another port: PORT=3001 npm start`;
    case "EACCES":
      return `Not allowed to listen on ${where}: ports below 1024 need extra rights. Use a port such as 3000 (PORT=3000).`;
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return `Cannot listen on ${where}: HOST is not an address of this machine. Leave HOST unset to listen on every interface.`;
    default:
      return null;
  }
}

/**
 * Checks the port can be taken before the store spends seconds starting up, so
 * a busy port is said at once. The server takes it for real once the store is
 * ready; in between another program may take it, which listen() then reports.
 */
export function portProblem(port: number, host: string | undefined): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      const problem = listenProblem(error, port, host);
      if (problem) resolve(problem);
      else reject(error);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}
