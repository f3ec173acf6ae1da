import { describe, expect, it } from "vitest";
import { clientAddressOf, UNKNOWN_CLIENT_ADDRESS } from "./load-context";

describe("clientAddressOf", () => {
  it("is the address the HTTP server resolved", () => {
    expect(clientAddressOf({ clientAddress: "203.0.113.7" })).toBe("203.0.113.7");
  });

  it("is one fixed key when a request reached the app without a server (unit tests)", () => {
    expect(clientAddressOf({})).toBe(UNKNOWN_CLIENT_ADDRESS);
    expect(clientAddressOf(undefined)).toBe(UNKNOWN_CLIENT_ADDRESS);
  });
});
