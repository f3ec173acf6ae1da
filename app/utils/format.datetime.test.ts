import { describe, expect, it } from "vitest";
import { formatDateTimeUtc, formatLongDate, formatUsd, formatUsdStrict } from "./format";

describe("formatting added for emails and the outbox", () => {
  it("formats exact cents like formatUsd and refuses fractions", () => {
    expect(formatUsdStrict(253197)).toBe(formatUsd(253197));
    expect(() => formatUsdStrict(0.5)).toThrow(RangeError);
  });

  it("writes long dates in UTC or a given time zone", () => {
    expect(formatLongDate(new Date("2026-11-05T03:30:00Z"))).toBe("November 05, 2026");
    expect(formatLongDate(new Date("2026-11-05T03:30:00Z"), "America/Chicago")).toBe("November 04, 2026");
    expect(formatLongDate("2026-01-09T12:00:00Z")).toBe("January 09, 2026");
  });

  it("writes a moment with its time zone", () => {
    expect(formatDateTimeUtc(new Date("2026-11-05T15:30:07Z"))).toMatch(/^November 05, 2026.*3:30:07\sPM UTC$/);
  });
});
