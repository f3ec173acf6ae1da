import { describe, expect, it } from "vitest";
import { delayFor, deviceKey, emailKey, LOCKOUT_LIMITS, lockoutMessage, MAX_DELAY_MS, networkKey } from "./lockout.server";

describe("sign-in lock-out helpers", () => {
  it("waits from the 5th failure, doubling up to a cap of a few seconds", () => {
    expect([0, 4].map((n) => delayFor(n, 5))).toEqual([0, 0]);
    expect([5, 6, 7, 8, 9].map((n) => delayFor(n, 5))).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect(delayFor(500, 5)).toBe(MAX_DELAY_MS);
    expect(MAX_DELAY_MS).toBeLessThanOrEqual(5_000);
  });

  it("gives an account no more failures than one address, so many addresses gain nothing", () => {
    expect(LOCKOUT_LIMITS.account.refuseAfter).toBeLessThanOrEqual(LOCKOUT_LIMITS.address.refuseAfter);
  });

  it("keys emails case-insensitively, devices apart from accounts, IPv4 addresses as given and IPv6 ones by their /64", () => {
    expect(emailKey("  Staff@Example.COM ")).toBe("email:staff@example.com");
    expect(deviceKey("staff@example.com")).not.toBe(emailKey("staff@example.com"));
    expect(networkKey("203.0.113.9")).toBe("ip:203.0.113.9");
    expect(networkKey("2001:db8:5:6::1")).toBe(networkKey("2001:db8:5:6:ffff::2"));
    expect(networkKey("2001:db8:5:6::1")).not.toBe(networkKey("2001:db8:5:7::1"));
  });

  it("says how long to wait", () => {
    expect(lockoutMessage(15)).toBe("Too many failed sign-in attempts. Please wait 15 minutes and try again.");
    expect(lockoutMessage(1)).toBe("Too many failed sign-in attempts. Please wait a minute and try again.");
  });
});
