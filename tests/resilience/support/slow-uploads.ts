import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from "node:http2";
import { connect as connectTcp } from "node:net";
import { connect as connectTls } from "node:tls";

export interface SlowUploads {
  /** Resolves once every stream has been answered or cut: the status of each (0: reset without an answer) and when, ms after the start. */
  settled: Promise<{ status: number; afterMs: number }[]>;
  stop(): void;
}

/**
 * The slow-body attack of issue 40, over HTTP/2 through the proxy: from one
 * client address, `sessions` TLS connections of `streamsPerSession` streams,
 * each a `POST path` declaring `declaredBytes` and then sending one byte a
 * second. Each stream ends when the other side answers or resets it; `stop`
 * cuts what is left.
 */
export function startSlowUploads(options: {
  url: string;
  ca: string;
  localAddress: string;
  sessions: number;
  streamsPerSession: number;
  path?: string;
  declaredBytes?: number;
}): SlowUploads {
  const target = new URL(options.url);
  const started = Date.now();
  const sessions: ClientHttp2Session[] = [];
  const streams: Promise<{ status: number; afterMs: number }>[] = [];
  const drips = new Set<ClientHttp2Stream>();
  const drip = setInterval(() => {
    for (const stream of drips) if (stream.writable) stream.write("a");
  }, 1_000);

  for (let index = 0; index < options.sessions; index++) {
    const session = connect(target.origin, {
      createConnection: () =>
        connectTls({
          socket: connectTcp({ host: "127.0.0.1", port: Number(target.port), localAddress: options.localAddress }),
          servername: target.hostname,
          ca: options.ca,
          ALPNProtocols: ["h2"],
        }),
    });
    session.on("error", () => {});
    sessions.push(session);
    for (let each = 0; each < options.streamsPerSession; each++) {
      const stream = session.request(
        {
          ":method": "POST",
          ":path": options.path ?? "/cart",
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(options.declaredBytes ?? 60_000),
        },
        { endStream: false },
      );
      drips.add(stream);
      streams.push(
        new Promise((resolve) => {
          const settle = (status: number) => {
            drips.delete(stream);
            resolve({ status, afterMs: Date.now() - started });
          };
          // An answer settles the stream; the rest of the body is never sent.
          stream.on("response", (headers) => {
            settle(Number(headers[":status"]));
            stream.close(constants.NGHTTP2_CANCEL);
          });
          stream.on("error", () => {});
          stream.once("close", () => settle(0));
          stream.write("a");
        }),
      );
    }
  }

  const stop = () => {
    clearInterval(drip);
    for (const session of sessions) session.destroy();
  };
  return {
    settled: Promise.all(streams).finally(() => clearInterval(drip)),
    stop,
  };
}
