import { deferred } from "./deferred";

/** Pages show the error page rarely: its script loads only when one does. */
export const ErrorPage = deferred(() => import("./ErrorPage").then((module) => module.ErrorPage));
