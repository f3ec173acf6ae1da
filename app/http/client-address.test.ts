import { describe, expect, it } from "vitest";
import { addressKey, normalizeAddress, resolveClientAddress, resolveProtocol } from "./client-address";

describe("resolveClientAddress", () => {
  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(resolveClientAddress({ socketAddress: "203.0.113.9", forwardedFor: "1.2.3.4", trustedProxies: 0 })).toBe("203.0.113.9");
    expect(resolveClientAddress({ socketAddress: "::ffff:127.0.0.1", forwardedFor: ["9.9.9.9", "8.8.8.8"], trustedProxies: 0 })).toBe(
      "127.0.0.1",
    );
  });

  it("takes the Nth address from the right behind N trusted proxies, ignoring what the client wrote further left", () => {
    const forwardedFor = "6.6.6.6, 198.51.100.7, 10.0.0.2";
    expect(resolveClientAddress({ socketAddress: "10.0.0.3", forwardedFor, trustedProxies: 1 })).toBe("10.0.0.2");
    expect(resolveClientAddress({ socketAddress: "10.0.0.3", forwardedFor, trustedProxies: 2 })).toBe("198.51.100.7");
    // Several headers count as one list, in order.
    expect(resolveClientAddress({ socketAddress: "10.0.0.3", forwardedFor: ["6.6.6.6", "198.51.100.7"], trustedProxies: 1 })).toBe(
      "198.51.100.7",
    );
  });

  it("takes the furthest entry when there are fewer than N, and the socket when there is none", () => {
    expect(resolveClientAddress({ socketAddress: "10.0.0.3", forwardedFor: "198.51.100.7", trustedProxies: 3 })).toBe("198.51.100.7");
    expect(resolveClientAddress({ socketAddress: "10.0.0.3", forwardedFor: undefined, trustedProxies: 1 })).toBe("10.0.0.3");
    expect(resolveClientAddress({ socketAddress: "10.0.0.3", forwardedFor: " , ", trustedProxies: 1 })).toBe("10.0.0.3");
  });

  it("falls back to the socket when the chosen entry is no IP address", () => {
    expect(resolveClientAddress({ socketAddress: "10.0.0.3", forwardedFor: "1.1.1.1, evil<script>", trustedProxies: 1 })).toBe("10.0.0.3");
    expect(resolveClientAddress({ socketAddress: undefined, forwardedFor: undefined, trustedProxies: 0 })).toBe("unknown");
  });

  it("accepts the forms proxies write: ports, brackets, IPv6, mapped IPv4", () => {
    expect(normalizeAddress("198.51.100.7:4711")).toBe("198.51.100.7");
    expect(normalizeAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normalizeAddress("2001:db8::1")).toBe("2001:db8::1");
    expect(normalizeAddress("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeAddress("unknown")).toBeNull();
    expect(normalizeAddress("")).toBeNull();
  });
});

describe("resolveProtocol", () => {
  it("ignores X-Forwarded-Proto without trusted proxies", () => {
    expect(resolveProtocol(false, "https", 0)).toBe("http");
  });

  it("believes the outermost trusted proxy", () => {
    expect(resolveProtocol(false, "https", 1)).toBe("https");
    expect(resolveProtocol(false, "https, http", 2)).toBe("https");
    expect(resolveProtocol(false, "gopher", 1)).toBe("http");
  });
});

describe("addressKey", () => {
  it("counts an IPv4 address as itself, mapped or not", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts every IPv6 address of one /64 as its /64, however it is written", () => {
    expect(addressKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("[2001:db8:1:2:aaaa::]:443")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });

  it("keeps the /64s of one provider apart", () => {
    expect(addressKey("2001:db8:1:2::1")).not.toBe(addressKey("2001:db8:1:3::1"));
  });

  it("counts what is no IP address as given, and nothing as unknown", () => {
    expect(addressKey("unknown")).toBe("unknown");
    expect(addressKey(undefined)).toBe("unknown");
    expect(addressKey("")).toBe("unknown");
  });
});
