import { deferred } from "./shared";

/** The home page's newsletter popup shows 3 s after its script runs: that script loads once the page is idle or the shopper interacts. */
export const NewsletterPopup = deferred(() => import("./NewsletterPopup").then((module) => module.NewsletterPopup), {
  until: "idle",
  name: "newsletter-popup",
});
