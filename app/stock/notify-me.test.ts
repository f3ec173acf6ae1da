import { describe, expect, it } from "vitest";
import { NOTIFY_ME_MESSAGES, NOTIFY_ME_STATUSES, notifyMeRedirectTarget, notifyMeStatus } from "./notify-me";

describe("the Notify me answers", () => {
  it("reads only the codes it knows from the query, and has a fixed text for each", () => {
    for (const status of NOTIFY_ME_STATUSES) {
      expect(notifyMeStatus(`?notify=${status}`)).toBe(status);
      expect(NOTIFY_ME_MESSAGES[status]).toMatch(/^[A-Z].+\.$/);
    }
    expect(notifyMeStatus("?color=red&notify=sent")).toBe("sent");
    expect(NOTIFY_ME_MESSAGES.available).toContain("order it now");
    expect(NOTIFY_ME_MESSAGES.sent).toContain("confirm");
  });

  it.each([
    "",
    "?notify=",
    "?notify=hacked",
    "?notify=<script>alert(1)</script>",
    "?notify=Sent",
    "?notify=constructor",
    "?notify=toString",
  ])("shows nothing for %j", (search) => {
    expect(notifyMeStatus(search)).toBeNull();
  });

  it("sends a no-script post back to the product's page, at the form", () => {
    expect(notifyMeRedirectTarget("blaze-3159840", "sent")).toBe("/product/blaze-3159840?notify=sent#notify-me");
    expect(notifyMeRedirectTarget("a b/../c?x#y", "invalid")).toBe("/product/a%20b%2F..%2Fc%3Fx%23y?notify=invalid#notify-me");
  });
});
