import { describe, expect, it } from "vitest";
import { nodeVersionProblem } from "./node-version";

describe("nodeVersionProblem", () => {
  it("accepts 22.12 and newer", () => {
    for (const version of ["22.12.0", "v22.13.1", "24.0.0", "v24.21.0", "25.1.0"]) expect(nodeVersionProblem(version)).toBeNull();
  });

  it("refuses an older Node in one line that names the version needed and how to get it", () => {
    for (const version of ["20.20.2", "v22.11.0", "18.0.0"]) {
      const problem = nodeVersionProblem(version);
      expect(problem).toContain("needs Node.js 22.12 or newer");
      expect(problem).toContain(`this is Node.js ${version.replace(/^v/, "")}`);
      expect(problem).toContain("nvm install");
      expect(problem).not.toContain("\n");
    }
  });
});
