import { deferred } from "~/components/shared";

/** The detail page's Compare posts as a plain form until its script loads, once the page is idle or the shopper interacts. */
export const CompareButton = deferred(() => import("./CompareButton").then((module) => module.CompareButton), {
  until: "idle",
  name: "compare-button",
});
