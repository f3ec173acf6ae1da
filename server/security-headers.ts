import type { ServerResponse } from "node:http";

/**
 * Gives a response each baseline header it does not already have, just
 * before its head is written: whatever wrote the response (static files,
 * Remix, the server's own refusals) keeps its own values, and nothing is
 * sent twice. A response whose own Content-Security-Policy lets a page frame
 * it (the Authorize.Net iframe communicator) gets no X-Frame-Options, which
 * would forbid what its frame-ancestors allows.
 */
export function withDefaultHeaders(res: ServerResponse, defaults: Record<string, string>, beforeHead?: () => void): void {
  const writeHead = res.writeHead;
  let applied = false;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    if (!applied) {
      applied = true;
      applyDefaults(res, defaults);
      beforeHead?.();
    }
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}

function applyDefaults(res: ServerResponse, defaults: Record<string, string>): void {
  const ownPolicy = String(res.getHeader("content-security-policy") ?? "");
  const framingAllowed = /frame-ancestors\s+(?!'none')/i.test(ownPolicy);
  for (const [name, value] of Object.entries(defaults)) {
    if (res.hasHeader(name)) continue;
    if (name.toLowerCase() === "x-frame-options" && framingAllowed) continue;
    res.setHeader(name, value);
  }
}
