import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * axe finds no serious or critical violation on the page as it is now. axe runs
 * its script in the page, so call it in the js-on project only. Parts laid out
 * only near the screen (content-visibility: auto, as the footer is) are laid out
 * first: axe scrolls to each element to read its colours, and a part laid out
 * only then moves what is below it, so it read the footer's text on the wrong
 * background now and then (a colour-contrast failure that is not on the page).
 */
export async function expectNoSeriousAxeViolations(page: Page) {
  await page.evaluate(() => {
    for (const element of document.querySelectorAll<HTMLElement>("body *")) {
      if (getComputedStyle(element).contentVisibility === "auto") element.style.contentVisibility = "visible";
    }
  });
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    ),
  ).toEqual([]);
}
