import { describe, expect, it } from "vitest";
import { addressKey, clientAddress, delayFor, emailKey, lockoutMessage, MAX_DELAY_MS } from "./lockout.server";

const request = (headers: Record<string, string> = {}) => new Request("http://store.test/login", { headers });

describe("sign-in lock-out helpers", () => {
  it("waits from the 5th failure, doubling up to a cap", () => {
    expect([0, 4].map((n) => delayFor(n, 5))).toEqual([0, 0]);
    expect([5, 6, 7, 8, 9].map((n) => delayFor(n, 5))).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(delayFor(50, 5)).toBe(MAX_DELAY_MS);
  });

  it("keys emails case-insensitively and addresses as given", () => {
    expect(emailKey("  Staff@Example.COM ")).toBe("email:staff@example.com");
    expect(addressKey("203.0.113.9")).toBe("ip:203.0.113.9");
  });

  it("takes the first hop of X-Forwarded-For, else one local key", () => {
    expect(clientAddress(request({ "X-Forwarded-For": "203.0.113.9, 10.0.0.1" }))).toBe("203.0.113.9");
    expect(clientAddress(request({ "X-Forwarded-For": "2001:DB8::1" }))).toBe("2001:db8::1");
    expect(clientAddress(request())).toBe("local");
    expect(clientAddress(request({ "X-Forwarded-For": "<script>" }))).toBe("local");
  });

  it("says how long to wait", () => {
    expect(lockoutMessage(15)).toBe("Too many failed sign-in attempts. Please wait 15 minutes and try again.");
    expect(lockoutMessage(1)).toBe("Too many failed sign-in attempts. Please wait a minute and try again.");
  });
});
