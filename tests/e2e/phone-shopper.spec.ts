import type { Page } from "@playwright/test";
import { expect, test, thankYouOrderId } from "./fixtures";

/**
 * The store as a shopper on a phone (390x844) and a desktop (1280x800) meets it:
 * the small things that read wrong, with script on and off.
 */
const PHONE = { width: 390, height: 844 };

/** A grill sold at a price over $49 (free shipping), used wherever a cart needs a line. */
const GRILL = "/product/alfresco-2911906";

async function addToCart(page: Page, path: string) {
  await page.goto(path);
  await page.locator(".buy-form").getByRole("button", { name: "ADD TO CART" }).click();
  await expect(page.getByTestId("cart-badge")).toBeVisible();
}

test.describe("the small things", () => {
  test("every page has exactly one top heading, the home page too", async ({ page }) => {
    for (const path of ["/", "/products/all/all", GRILL, "/finding/grill", "/cart", "/checkout", "/contact", "/order-status", "/nope"]) {
      await page.goto(path);
      await expect(page.locator("h1"), path).toHaveCount(1);
    }
  });

  test("brands are spelled as their makers spell them: AOG, not Aog", async ({ page }) => {
    await page.goto("/products/aog/all");
    await expect(page.getByRole("option", { name: "AOG", exact: true })).toHaveCount(1);
    await expect(page.getByText("Aog", { exact: true })).toHaveCount(0);
    await page.getByRole("article").first().getByRole("link").click();
    await expect(page.getByRole("link", { name: "AOG", exact: true }).first()).toHaveAttribute("href", "/products/aog/all");
  });

  test("the tax line reads TAX in the cart and at checkout", async ({ page }) => {
    await addToCart(page, GRILL);
    for (const path of ["/cart", "/checkout"]) {
      await page.goto(path);
      await expect(page.locator("dt").getByText("TAX", { exact: true }), path).toHaveCount(1);
      await expect(page.getByText(/^tax$/i).filter({ hasNotText: "TAX" }), path).toHaveCount(0);
    }
  });

  test("each payment button says what it does", async ({ page, checkout }) => {
    await addToCart(page, GRILL);
    await page.goto("/checkout");
    await checkout.proceedToPayment({ email: "describe@example.com" });
    const card = page.getByRole("button", { name: "Credit or debit card" });
    const hosted = page.getByRole("button", { name: "Card on Authorize.Net's secure payment form" });
    await expect(card).toHaveAccessibleDescription(/Stripe/);
    await expect(hosted).toHaveAccessibleDescription(/Authorize\.Net's secure payment page/);
    await expect(page.getByText(/Pay by card on Authorize\.Net's secure payment page/)).toBeVisible();
  });

  test("the staff dashboard shows each order's total, fits a phone and links back to the store", async ({ page, staff, checkout }) => {
    await page.goto("/custom-product-checkout?quantity=1");
    await checkout.proceedToPayment({ email: `dashboard-${test.info().project.name}@example.com` });
    await page.getByRole("button", { name: "Credit or debit card" }).click();
    await page.getByRole("button", { name: "Approve payment" }).click();
    const orderId = await thankYouOrderId(page);

    await page.setViewportSize(PHONE);
    await staff.open(`/dashboard?q=${orderId}`);
    const row = page.locator(`[data-testid="order-row"][data-order-id="${orderId}"]`);
    await expect(row.getByTestId("order-total")).toHaveText(/^\$\d+\.\d\d$/);
    // Nothing is cut off: every cell of the row is inside the screen, and the page does not scroll sideways.
    for (const cell of await row.locator("th, td").all()) {
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole("link", { name: "Back to the store" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("search ranked by relevance", () => {
  test("'grill cover' lists grill covers first, on the results page and in the suggestions", async ({ page, javaScriptEnabled }) => {
    await page.goto("/finding/grill%20cover");
    const titles = await page.getByRole("article").getByRole("heading").allTextContents();
    expect(titles.length).toBeGreaterThan(20);
    for (const title of titles.slice(0, 20)) expect(title).toMatch(/\bgrill cover\b/i);
    test.skip(!javaScriptEnabled, "the suggestions need script");
    await page.getByLabel("Search products").pressSequentially("grill cover");
    const suggestions = page.getByRole("list", { name: "Matching products" }).getByRole("link");
    await expect(suggestions).toHaveCount(5);
    for (const title of await suggestions.allTextContents()) expect(title).toMatch(/\bgrill cover\b/i);
  });
});

const DESKTOP = { width: 1280, height: 800 };

test.describe("a product page that sells on the first screen", () => {
  for (const viewport of [PHONE, DESKTOP]) {
    test(`price, stock and ADD TO CART / BUY NOW are within the first ${viewport.width}x${viewport.height} screen`, async ({ page }) => {
      await page.setViewportSize(viewport);
      for (const path of [GRILL, "/product/blaze-3159840", "/product/napoleon-3068366"]) {
        await page.goto(path);
        const buy = page.locator(".buy-form");
        for (const control of [buy.getByRole("button", { name: "ADD TO CART" }), buy.getByRole("button", { name: "BUY NOW" })]) {
          const box = (await control.boundingBox())!;
          expect(box.y + box.height, `${path}: ${await control.textContent()}`).toBeLessThanOrEqual(viewport.height);
        }
        for (const text of [page.locator(".product-detail__price .price--large"), page.getByText("In Stock", { exact: true })]) {
          const box = (await text.boundingBox())!;
          expect(box.y + box.height, path).toBeLessThanOrEqual(viewport.height);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(viewport.width);
      }
    });
  }

  test("the phone header keeps search, cart and chat in reach and leaves the screen to the page", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto(GRILL);
    const header = (await page.locator(".site-header").boundingBox())!;
    expect(header.y + header.height).toBeLessThanOrEqual(200);
    await expect(page.getByLabel("Search products")).toBeInViewport();
    await expect(page.getByRole("link", { name: /^Cart, / })).toBeInViewport();
    await expect(page.locator(".site-header").getByRole("link", { name: "Chat with us" })).toBeInViewport();
    await expect(page.getByRole("link", { name: /Call an expert/ })).toBeInViewport();
  });
});

/** Text of the page under a floating (position: fixed) chat link, at the current scroll position. */
function textUnderFloatingChat(page: Page) {
  return page.evaluate(() => {
    /** The part of a text box its scrolling or clipping ancestors let show (a carousel hides its off-screen slides), or null. */
    const visiblePart = (rect: DOMRect, element: Element | null) => {
      let { left, right, top, bottom } = rect;
      for (let ancestor = element; ancestor; ancestor = ancestor.parentElement) {
        const style = getComputedStyle(ancestor);
        if (style.overflowX === "visible" && style.overflowY === "visible") continue;
        const clip = ancestor.getBoundingClientRect();
        [left, right, top, bottom] = [
          Math.max(left, clip.left),
          Math.min(right, clip.right),
          Math.max(top, clip.top),
          Math.min(bottom, clip.bottom),
        ];
      }
      return right > left && bottom > top ? { left, right, top, bottom } : null;
    };
    const floating = [...document.querySelectorAll<HTMLElement>('a[href="/chatbot"]')]
      .filter((link) => getComputedStyle(link).position === "fixed" && link.getClientRects().length > 0)
      .map((link) => link.getBoundingClientRect());
    const covered: string[] = [];
    for (const root of document.querySelectorAll("header, main, footer")) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode;
        if (!node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {
          const seen = visiblePart(rect, node.parentElement);
          for (const button of floating) {
            if (seen && seen.left < button.right && seen.right > button.left && seen.top < button.bottom && seen.bottom > button.top) {
              covered.push(node.textContent.trim().slice(0, 60));
            }
          }
        }
      }
    }
    return { floating: floating.length, covered };
  });
}

test.describe("nothing sits on the page's text", () => {
  for (const viewport of [PHONE, DESKTOP]) {
    test(`the chat button covers no text of the cart or the checkout summary at ${viewport.width}px, at any scroll position`, async ({
      page,
    }) => {
      await addToCart(page, GRILL);
      await addToCart(page, "/product/napoleon-3068366"); // Napoleon Stainless Steel Grid Scraper - 62031
      await page.setViewportSize(viewport);
      for (const path of ["/cart", "/checkout", GRILL]) {
        await page.goto(path);
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        for (let y = 0; y < height; y += 150) {
          await page.evaluate((top) => window.scrollTo(0, top), y);
          const { floating, covered } = await textUnderFloatingChat(page);
          expect(floating, "one floating chat button on wide screens, none on a phone").toBe(viewport === DESKTOP ? 1 : 0);
          expect(covered, `${path} scrolled to ${y}`).toEqual([]);
        }
      }
    });
  }

  test("typing in the search box is never interrupted by the newsletter popup, which still stays away once closed", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "without script there is no popup");
    await page.setViewportSize(PHONE);
    await page.clock.install({ time: new Date("2026-06-01T12:00:00Z") });
    await page.clock.pauseAt(new Date("2026-06-01T12:00:01Z"));
    await page.goto("/");
    // The popup's script loads at the first interaction (the stopped clock holds back "idle"); its timer starts once it has hydrated.
    await expect(async () => {
      await page.mouse.move(5, 5 + Math.round(Math.random() * 10));
      await expect(page.locator('[data-deferred="newsletter-popup"][data-hydrated]')).toHaveCount(1, { timeout: 1000 });
    }).toPass();
    const popup = page.getByRole("dialog", { name: "Get 10% off your first purchase" });
    const search = page.getByLabel("Search products");
    await search.click();
    await search.pressSequentially("grill ");
    await page.clock.runFor(3_500); // the popup's 3 s pass while the shopper types
    await search.pressSequentially("brush cover");
    await page.clock.runFor(500);
    await expect(search).toHaveValue("grill brush cover");
    await expect(search).toBeFocused();
    await expect(popup).toBeHidden();

    // Once the shopper leaves the field, the panel shows, without taking focus or covering the search box.
    await page.keyboard.press("Tab"); // on to the search button: no longer typing
    await page.clock.runFor(100);
    await expect(popup).toBeVisible();
    await expect(search).toHaveValue("grill brush cover");
    const panel = (await popup.boundingBox())!;
    const box = (await search.boundingBox())!;
    expect(panel.y).toBeGreaterThan(box.y + box.height);
    expect(await popup.evaluate((element) => element.contains(document.activeElement))).toBe(false);

    await popup.getByRole("button", { name: "Close" }).click();
    await expect(popup).toBeHidden();
    await page.reload();
    await page.clock.runFor(10_000);
    await expect(popup).toBeHidden();
  });
});

/**
 * What a shopper reads on each product card of the page: the part of the title its two-line clamp
 * lets show (word by word, as laid out), the facts line and the price. Cards far below the screen are
 * laid out only as they come near it (`content-visibility: auto`, app.css), so all of them are laid out
 * first, as each would be when the shopper scrolls to it.
 */
function visibleCardTexts(page: Page) {
  return page.evaluate(() => {
    const layOutEveryCard = document.createElement("style");
    layOutEveryCard.textContent = ".product-grid > li { content-visibility: visible !important; }";
    document.head.append(layOutEveryCard);
    return [...document.querySelectorAll<HTMLElement>(".product-card")].map((card) => {
      const title = card.querySelector<HTMLElement>(".product-card__title")!;
      const box = title.getBoundingClientRect();
      const words: string[] = [];
      const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode as Text;
        for (const match of node.data.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const rect = range.getBoundingClientRect();
          if (rect.bottom <= box.bottom + 1 && rect.right <= box.right + 1) words.push(match[0]);
        }
      }
      const facts = card.querySelector<HTMLElement>(".product-card__facts");
      return {
        title: words.join(" "),
        facts: facts?.innerText.trim() ?? "",
        // The facts line is never cut: all of it is laid out inside its own box.
        factsCut: facts ? facts.scrollHeight > facts.clientHeight + 1 || facts.scrollWidth > facts.clientWidth + 1 : false,
        price: card.querySelector<HTMLElement>(".product-card__price .price")?.innerText.trim() ?? "",
      };
    });
  });
}

test.describe("products told apart at a glance", () => {
  for (const viewport of [PHONE, DESKTOP]) {
    test(`no two cards of the gas grills list read the same at ${viewport.width}x${viewport.height}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto("/products/all/Gas%20Grills");
      const cards = await visibleCardTexts(page);
      expect(cards.length).toBeGreaterThan(50);
      // The clamp does cut titles here: without the facts line, cards would read alike.
      expect(new Set(cards.map((card) => `${card.title} | ${card.price}`)).size).toBeLessThan(cards.length);
      expect(cards.filter((card) => card.factsCut)).toEqual([]);
      const seen = new Map<string, number>();
      for (const card of cards) {
        const text = `${card.title} | ${card.facts} | ${card.price}`;
        seen.set(text, (seen.get(text) ?? 0) + 1);
      }
      expect([...seen].filter(([, count]) => count > 1).map(([text]) => text)).toEqual([]);
    });
  }

  test("a built-in grill and the same brand's grill on a cart have different pictures", async ({ page }) => {
    const drawings: Array<{ kind: string | null; shape: string }> = [];
    // Alfresco ALXE 42-Inch: the built-in grill head (ALXE-42SZ-LP) and the same grill on a deluxe cart (ALXE-42SZCD-LP).
    for (const path of ["/product/alfresco-2908730", GRILL]) {
      await page.goto(path);
      const src = await page.locator(".gallery__main img").getAttribute("src");
      expect(src, path).toMatch(/^\/images\/products\/alfresco\/\d+\/\d+\.svg\?v=\d+$/);
      const response = await page.request.get(src!);
      expect(response.headers()["content-type"]).toBe("image/svg+xml; charset=utf-8");
      const svg = await response.text();
      // The drawing itself, without the view's angle, the background and the brand and model written on it.
      drawings.push({ kind: /data-kind="([^"]+)"/.exec(svg)?.[1] ?? null, shape: /<g transform="[^"]*">(.*)<\/g>/s.exec(svg)?.[1] ?? "" });
    }
    expect(drawings.map((drawing) => drawing.kind)).toEqual(["grill-built-in", "grill-cart"]);
    // Not the same drawing with other words on it: the shapes differ.
    expect(drawings[0]!.shape).not.toBe("");
    expect(drawings[0]!.shape).not.toBe(drawings[1]!.shape);
  });
});
