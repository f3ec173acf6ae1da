import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { useHydrated } from "~/utils/use-hydrated";
import { deferred } from "./deferred";

function ModeField() {
  const hydrated = useHydrated();
  return <input type="hidden" name="mode" value={hydrated ? "fetch" : "document"} />;
}

describe("deferred", () => {
  test("the server draws the component in full inside its named wrapper, not yet marked hydrated", async () => {
    const Field = deferred(async () => ModeField, { until: "idle", name: "mode-field" });
    await new Promise((resolve) => setTimeout(resolve, 0)); // the server loads the module at start-up
    const html = renderToString(<Field />);
    expect(html).toMatch(
      /^<div class="deferred" data-deferred="mode-field">.*<input type="hidden" name="mode" value="document"\/>.*<\/div>$/,
    );
    expect(html).not.toContain("data-hydrated");
  });
});
