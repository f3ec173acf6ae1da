import { STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { ALLOWED_METHODS } from "./guards";

/**
 * Requests Node answers before any middleware: CONNECT (405, not a dropped
 * connection), a method the parser does not know such as TRACK (405), and
 * malformed requests (400; 431 for oversized headers; 408 for one too slow), all with the baseline
 * headers.
 */
export function refuseWhatNeverReachesExpress(server: Server, defaults: Record<string, string>) {
  const answer = (socket: Duplex, status: number, extra: Record<string, string> = {}) => {
    // As Node does: no answer on a connection whose response is already under way.
    if (!socket.writable || (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage) return socket.destroy();
    const body = `${STATUS_CODES[status]}\n`;
    const headers = {
      ...defaults,
      ...extra,
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(body)),
      Connection: "close",
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join("\r\n");
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n\r\n${body}`);
  };
  server.on("connect", (_req, socket: Duplex) => answer(socket, 405, { Allow: ALLOWED_METHODS }));
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET") return socket.destroy();
    if (error.code === "HPE_INVALID_METHOD") return answer(socket, 405, { Allow: ALLOWED_METHODS });
    // HEADERS_TIMEOUT_MS or REQUEST_TIMEOUT_MS ran out: a slow or half-open request is answered and closed.
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return answer(socket, 408);
    answer(socket, error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400);
  });
}
