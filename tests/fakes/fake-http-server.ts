import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the fake received it. `body` is parsed JSON when the body was JSON, else the raw text. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  rawBody: string;
}

/** An answer: an object or array is sent as JSON, a string as it is (to imitate malformed bodies). */
export interface FakeResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string> | undefined;
}

/** `normal` is the provider-like default answer, for a handler that changes only some requests. */
export type FakeHandler = (request: RecordedRequest, normal: DefaultHandler) => FakeResponse | Promise<FakeResponse>;
type DefaultHandler = (request: RecordedRequest) => FakeResponse | Promise<FakeResponse>;

export interface FakeServer {
  /** Base address, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** `127.0.0.1:PORT`, for SDKs that take a host without a scheme. */
  readonly host: string;
  readonly requests: RecordedRequest[];
  /** Replaces the provider-like default answer for every later request. */
  respondWith(handler: FakeHandler): void;
  respondWith(status: number, body?: unknown, headers?: Record<string, string>): void;
  /** Goes back to the provider-like default answer and forgets recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts a local HTTP server on 127.0.0.1 and a free port that records requests and answers through a handler. */
export async function startFakeHttpServer(defaultHandler: DefaultHandler): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  let handler: FakeHandler = defaultHandler;

  const server = createServer((incoming, outgoing) => {
    void answer(incoming, outgoing);
  });

  async function answer(incoming: IncomingMessage, outgoing: ServerResponse) {
    const request = await recordRequest(incoming);
    requests.push(request);
    try {
      writeResponse(outgoing, await handler(request, defaultHandler));
    } catch (error) {
      writeResponse(outgoing, { status: 500, body: { fakeServerError: String(error) } });
    }
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const host = `127.0.0.1:${port}`;

  return {
    url: `http://${host}`,
    host,
    requests,
    respondWith(handlerOrStatus: FakeHandler | number, body?: unknown, headers?: Record<string, string>) {
      handler = typeof handlerOrStatus === "function" ? handlerOrStatus : () => ({ status: handlerOrStatus, body, headers });
    },
    reset() {
      handler = defaultHandler;
      requests.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

async function recordRequest(incoming: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks).toString("utf8");
  return {
    method: incoming.method ?? "GET",
    path: incoming.url ?? "/",
    headers: incoming.headers,
    body: parseJsonOrText(rawBody),
    rawBody,
  };
}

function parseJsonOrText(rawBody: string): unknown {
  if (rawBody === "") return undefined;
  try {
    return JSON.parse(rawBody);
  } catch {
    return rawBody;
  }
}

function writeResponse(outgoing: ServerResponse, response: FakeResponse) {
  const isText = typeof response.body === "string";
  const payload = response.body === undefined ? "" : isText ? (response.body as string) : JSON.stringify(response.body);
  outgoing.writeHead(response.status, {
    "content-type": isText ? "text/plain; charset=utf-8" : "application/json",
    ...response.headers,
  });
  outgoing.end(payload);
}

/** The credentials of an `Authorization: Basic ...` header, or null. */
export function basicAuthCredentials(headers: IncomingHttpHeaders): { username: string; password: string } | null {
  const match = /^Basic\s+(.+)$/i.exec(headers.authorization ?? "");
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const separator = decoded.indexOf(":");
  if (separator < 0) return null;
  return { username: decoded.slice(0, separator), password: decoded.slice(separator + 1) };
}

/** The token of an `Authorization: Bearer ...` header, or null. */
export function bearerToken(headers: IncomingHttpHeaders): string | null {
  const match = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? "");
  return match?.[1] ?? null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
