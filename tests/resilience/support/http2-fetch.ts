import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from "node:http2";
import { connect as connectTcp } from "node:net";
import { connect as connectTls } from "node:tls";

/** What the scripted shoppers send a request with: global fetch, or HTTP/2 through the proxy. */
export type Fetcher = (
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: URLSearchParams; signal?: AbortSignal },
) => Promise<Response>;

export interface Http2Fetcher {
  fetch: Fetcher;
  /** The protocol the TLS handshake agreed on ("h2"), once connected. */
  protocol(): string | undefined;
  close(): void;
}

/**
 * A browser's one HTTP/2 connection to an https origin: every request of the
 * fetcher is a stream on the same TLS connection, opened on first use from
 * `localAddress` (any of 127.0.0.0/8, so each scripted shopper can come from
 * its own address) and trusting only `ca` (the proxy's own root). Reopened
 * when the server closes it. Bodies come back as sent (no Accept-Encoding is
 * added, so nothing is compressed unless the caller asks).
 */
export function createHttp2Fetcher({ ca, localAddress }: { ca: string; localAddress?: string }): Http2Fetcher {
  let session: ClientHttp2Session | undefined;
  let closed = false;

  const sessionFor = (url: URL): ClientHttp2Session => {
    if (session && !session.closed && !session.destroyed) return session;
    const opened = connect(url.origin, {
      createConnection: () =>
        connectTls({
          // localhost as 127.0.0.1, so a client address in 127.0.0.0/8 can reach it.
          socket: connectTcp({
            host: url.hostname === "localhost" ? "127.0.0.1" : url.hostname,
            port: Number(url.port || 443),
            localAddress,
          }),
          servername: url.hostname,
          ca,
          ALPNProtocols: ["h2"],
        }),
    });
    opened.on("error", () => {}); // each stream reports its own failure
    opened.once("close", () => {
      if (session === opened) session = undefined;
    });
    session = opened;
    return opened;
  };

  const fetch: Fetcher = (url, init) =>
    new Promise((resolve, reject) => {
      if (closed) return reject(new Error("fetcher closed"));
      const body = init.body?.toString();
      const headers: Record<string, string> = {
        ":method": init.method,
        ":path": url.pathname + url.search,
        ":authority": url.host,
        ...Object.fromEntries(Object.entries(init.headers).map(([name, value]) => [name.toLowerCase(), value])),
      };
      if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
      let stream;
      try {
        stream = sessionFor(url).request(headers, { endStream: body === undefined });
      } catch (error) {
        return reject(error as Error);
      }
      const abort = () => stream.close(constants.NGHTTP2_CANCEL);
      init.signal?.addEventListener("abort", abort, { once: true });
      let answer: IncomingHttpHeaders | undefined;
      const chunks: Buffer[] = [];
      stream.on("response", (received) => (answer = received));
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", reject);
      stream.on("close", () => {
        init.signal?.removeEventListener("abort", abort);
        reject(new Error(`stream closed without a whole answer (code ${stream.rstCode})`));
      });
      // The answer is whole when the server ends its side, even while a body it refused is still unsent.
      stream.on("end", () => {
        init.signal?.removeEventListener("abort", abort);
        if (!stream.closed) stream.close();
        if (!answer) return reject(new Error("stream ended without an answer"));
        const status = Number(answer[":status"]);
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(answer)) {
          if (name.startsWith(":") || value === undefined) continue;
          for (const item of Array.isArray(value) ? value : [String(value)]) responseHeaders.append(name, item);
        }
        const nullBody = status === 204 || status === 205 || status === 304 || init.method === "HEAD";
        resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
      });
      if (body !== undefined) stream.end(body);
    });

  return {
    fetch,
    protocol: () => session?.alpnProtocol,
    close() {
      closed = true;
      session?.close();
      session = undefined;
    },
  };
}
