import { describe, expect, it } from "vitest";
import { createLocalTextFormatter, LOCAL_FORMATTER_NAME } from "./local-formatter.server";

describe("createLocalTextFormatter", () => {
  const formatter = createLocalTextFormatter();

  it("says it is a local formatter, not a language model", () => {
    expect(formatter.isStandIn).toBe(true);
    expect(formatter.name).toBe(LOCAL_FORMATTER_NAME);
    expect(formatter.name).toMatch(/local formatter/);
    expect(formatter.name).toMatch(/not a language model/);
  });

  it("really reformats descriptions", async () => {
    expect(await formatter.reformatDescription("a 36-inch grill\nburns propane")).toBe("A **36-inch** grill. Burns **propane**.");
  });

  it("has no chat answers, so the chat feature uses its offline answerer", async () => {
    expect(await formatter.chat({ system: "s", messages: [{ role: "user", content: "hi" }] })).toBeNull();
  });
});
