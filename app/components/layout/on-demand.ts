import { deferred } from "~/components/shared";

/**
 * The parts of root's layout whose script loads on demand. Each loads a module that imports
 * `~/components/shared` like any other part, so its loader is kept out of everything shared.ts
 * re-exports (there it would be an import circle: tests/support/import-cycles.test.ts). Only root
 * imports this module, so it is part of root's own script file: imported by a route as well, it
 * would become a script file of its own on every page.
 */

/**
 * The floating chat button, on wide screens only: it keeps to a gutter the page leaves free at the
 * right (app.css), so it never sits on text. On phones the chat is a link in the header's row instead.
 * Its script (the popup window) hydrates once the page is idle or the shopper interacts: until then
 * the server's plain link to /chatbot works.
 */
export const ChatButton = deferred(() => import("~/components/FloatingChatButton").then((module) => module.FloatingChatButton), {
  until: "idle",
  name: "chat-button",
});

/** The store's error page, drawn rarely: its script loads only when one is. */
export const ErrorPage = deferred(() => import("~/components/ErrorPage").then((module) => module.ErrorPage));
