import { chromium, type Browser, type BrowserContextOptions } from "@playwright/test";
import { existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { startStoreServer, type StoreServer } from "../tests/e2e/support/store-server";

/**
 * npm run screenshots (after npm run build)
 * Starts the built store on a free port with an in-memory database and takes
 * the README's two pictures: the home page on a desktop and a product page on
 * a phone, written to docs/screenshots/.
 */
const OUTPUT_DIR = "docs/screenshots";
const CHROMIUM = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
/** The key NewsletterPopup reads: set before the page loads, the popup stays closed. */
const NEWSLETTER_POPUP_DISMISSED_KEY = "newsletter-popup-dismissed";

const shots: ReadonlyArray<{ file: string; path: string; context: BrowserContextOptions }> = [
  {
    file: "home-desktop.png",
    path: "/",
    context: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  },
  {
    file: "product-phone.png",
    path: "/product/blaze-3159840",
    context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
  },
];

if (!existsSync("build/server.js")) {
  console.error("No build found: run `npm run build` first.");
  process.exit(1);
}

let store: StoreServer | undefined;
let browser: Browser | undefined;
try {
  store = await startStoreServer({ PGLITE_DIR: "memory://shots" });
  await waitUntilReady(store.baseURL);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  mkdirSync(OUTPUT_DIR, { recursive: true });
  for (const shot of shots) {
    const context = await browser.newContext({ ...shot.context, baseURL: store.baseURL });
    await context.addInitScript((key) => window.localStorage.setItem(key, "screenshots"), NEWSLETTER_POPUP_DISMISSED_KEY);
    const page = await context.newPage();
    await page.goto(shot.path, { waitUntil: "networkidle" });
    const file = path.join(OUTPUT_DIR, shot.file);
    await page.screenshot({ path: file });
    console.log(`${file}: ${Math.round(statSync(file).size / 1024)} KB`);
    await context.close();
  }
} finally {
  await browser?.close();
  await store?.stop();
}

/** /readyz once the catalogue is loaded, where the store has it; otherwise /healthz already answered. */
async function waitUntilReady(baseURL: string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseURL}/readyz`);
    if (response.ok || response.status === 404) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the store did not become ready within 2 minutes");
}
