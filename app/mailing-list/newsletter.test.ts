import { parseNewsletterForm } from "./newsletter-form.server";
import { describe, expect, it } from "vitest";
import {
  currentPathWithoutNewsletterFlags,
  NEWSLETTER_MESSAGES,
  newsletterMessage,
  newsletterRedirectTarget,
  newsletterResult,
  newsletterResultFromSearch,
} from "./newsletter";
import { safeRedirectPath } from "~/utils/redirect";

describe("newsletter messages", () => {
  it("uses the spec's exact words", () => {
    expect(newsletterMessage("invalid", "popup")).toBe("Please enter a valid email address.");
    expect(newsletterMessage("invalid", "footer")).toBe("Please enter a valid email address");
    expect(newsletterMessage("duplicate", "footer")).toBe("This email is already registered.");
    expect(newsletterMessage("duplicate", "popup")).toBe("This email is already registered.");
    expect(newsletterMessage("failed", "footer")).toBe("Failed to subscribe. Please try again.");
    expect(newsletterMessage("subscribed", "footer")).toBe("Thank you for joining our mailing list");
    expect(NEWSLETTER_MESSAGES.subscribed.popup).toBeTruthy();
  });

  it("keeps the typed value on errors and clears it on success", () => {
    expect(newsletterResult("duplicate", "footer", "a@b.co").email).toBe("a@b.co");
    expect(newsletterResult("subscribed", "footer", "a@b.co").email).toBe("");
  });
});

describe("parseNewsletterForm", () => {
  it.each(["fan@example.com", "  fan@example.com  ", "first.last+grill@mail.example.co.uk", "a@b.co"])("accepts %j", (email) => {
    const parsed = parseNewsletterForm({ email, source: "footer" });
    expect(parsed).toEqual({ valid: true, source: "footer", email: email.trim() });
  });

  it.each([
    "",
    "   ",
    "fan",
    "fan@",
    "fan@example",
    "@example.com",
    "fan@.com",
    "fan @example.com",
    "fan@exa mple.com",
    "a@@b.com",
    "a@b.c",
    "fan..club@example.com",
  ])("refuses %j", (email) => {
    expect(parseNewsletterForm({ email, source: "popup" }).valid).toBe(false);
  });

  it("refuses an address longer than 254 characters", () => {
    expect(parseNewsletterForm({ email: `${"a".repeat(250)}@example.com` }).valid).toBe(false);
  });

  it("treats a missing or unknown source as the footer and a missing email as invalid", () => {
    expect(parseNewsletterForm({})).toEqual({ valid: false, source: "footer", email: "" });
    expect(parseNewsletterForm({ email: "x@y.zz", source: "sidebar" }).source).toBe("footer");
    expect(parseNewsletterForm({ email: 42, source: "popup" })).toEqual({ valid: false, source: "popup", email: "" });
  });
});

describe("safeRedirectPath", () => {
  it("keeps paths on this site", () => {
    expect(safeRedirectPath("/")).toBe("/");
    expect(safeRedirectPath("/products/all/all?page=2")).toBe("/products/all/all?page=2");
  });

  it.each([
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example/",
    "/\t/evil.example",
    "javascript:alert(1)",
    "evil",
    "",
    undefined,
    42,
  ])("turns %j into /", (value) => {
    expect(safeRedirectPath(value)).toBe("/");
  });
});

describe("redirect round trip (no script)", () => {
  it("carries the result back to the page, without an earlier result's flags", () => {
    const target = newsletterRedirectTarget(
      "/cart?newsletter=failed&newsletter_email=old%40x.y&keep=1",
      newsletterResult("invalid", "footer", "fan@"),
    );
    expect(target).toBe("/cart?keep=1&newsletter=invalid&newsletter_source=footer&newsletter_email=fan%40#newsletter");
    const search = target.slice(target.indexOf("?"), target.indexOf("#"));
    expect(newsletterResultFromSearch(search, "footer")).toEqual({
      source: "footer",
      status: "invalid",
      message: "Please enter a valid email address",
      email: "fan@",
    });
    expect(newsletterResultFromSearch(search, "popup")).toBeNull();
  });

  it("leaves the email out of the address after a success", () => {
    const target = newsletterRedirectTarget("/", newsletterResult("subscribed", "popup", "fan@example.com"));
    expect(target).toBe("/?newsletter=subscribed&newsletter_source=popup#newsletter-popup");
  });

  it("ignores flags it does not know", () => {
    expect(newsletterResultFromSearch("?newsletter=hacked&newsletter_source=footer", "footer")).toBeNull();
    expect(newsletterResultFromSearch("", "footer")).toBeNull();
  });

  it("posts the current page without the flags as redirectTo", () => {
    expect(currentPathWithoutNewsletterFlags("/contact", "?newsletter=subscribed&newsletter_source=footer")).toBe("/contact");
    expect(currentPathWithoutNewsletterFlags("/finding/grill", "?page=2&newsletter=failed")).toBe("/finding/grill?page=2");
  });
});
