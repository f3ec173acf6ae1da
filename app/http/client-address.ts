import { isIP, isIPv6 } from "node:net";

/**
 * Where a request came from, as the store's HTTP server resolves it once per
 * request (server/). Without trusted proxies it is the TCP peer and nothing a
 * client wrote counts. With N trusted proxies (TRUSTED_PROXIES), each of them
 * appended the address it was connected from to X-Forwarded-For, so the client
 * is the Nth entry from the right; anything further left was written by the
 * client and is ignored. This is Express's "trust proxy = N" rule.
 */
export interface ForwardingFacts {
  /** The socket's remote address (e.g. "127.0.0.1", "::ffff:10.0.0.5"). */
  socketAddress: string | undefined;
  /** Every X-Forwarded-For header value, as Node hands them over (joined or as a list). */
  forwardedFor: string | string[] | undefined;
  /** TRUSTED_PROXIES: how many proxies in front of the store append to X-Forwarded-For. */
  trustedProxies: number;
}

export function resolveClientAddress({ socketAddress, forwardedFor, trustedProxies }: ForwardingFacts): string {
  const socket = normalizeAddress(socketAddress) ?? "unknown";
  if (trustedProxies <= 0) return socket;
  return normalizeAddress(trustedHop(forwardedFor, trustedProxies)) ?? socket;
}

/**
 * The scheme the client used: "https" only when a trusted proxy says so in
 * X-Forwarded-Proto (the entry of the outermost trusted proxy), else the
 * connection's own scheme.
 */
export function resolveProtocol(
  encrypted: boolean,
  forwardedProto: string | string[] | undefined,
  trustedProxies: number,
): "http" | "https" {
  const own = encrypted ? "https" : "http";
  if (trustedProxies <= 0) return own;
  const chosen = trustedHop(forwardedProto, trustedProxies)?.toLowerCase();
  return chosen === "https" || chosen === "http" ? chosen : own;
}

/**
 * The entry of a forwarding header (X-Forwarded-For, -Proto, -Host) that the
 * outermost of `trustedProxies` proxies wrote, each appending its own; with
 * too few entries, the furthest one (Express does the same); undefined when
 * there is none.
 */
export function trustedHop(value: string | string[] | undefined, trustedProxies: number): string | undefined {
  const hops = (Array.isArray(value) ? value.join(",") : (value ?? ""))
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  return hops.length === 0 ? undefined : hops[Math.max(0, hops.length - trustedProxies)];
}

/** An IP address without port, brackets or the IPv4-mapped IPv6 prefix; null when it is not an IP address. */
export function normalizeAddress(raw: string | undefined): string | null {
  if (!raw) return null;
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  value = value.replace(/%[\w.-]+$/, ""); // an IPv6 zone id
  if (/^::ffff:[\d.]+$/i.test(value)) value = value.slice(7);
  return isIP(value) ? value.toLowerCase() : null;
}

/**
 * The key a client's budgets count under (open connections, rate limits, sign-in failures): an IPv4
 * address as is, an IPv6 one by its /64. A /64 is the smallest network a provider hands one subscriber,
 * so one host holds millions of its addresses; counting each apart would give it millions of budgets.
 * Anything that is no IP address is counted as given ("unknown" when empty).
 */
export function addressKey(raw: string | undefined): string {
  const address = normalizeAddress(raw);
  if (!address) return raw?.trim() || "unknown";
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

function expandIPv6(address: string): string[] {
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  const missing = address.includes("::") ? 8 - left.length - right.length : 0;
  return [...left, ...Array<string>(missing).fill("0"), ...right].map((group) => group.replace(/^0+(?=.)/, ""));
}
