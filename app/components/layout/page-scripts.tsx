import { createContext, useContext, type ComponentType } from "react";

/** The server's own scripts component (app/http/page-scripts.server.tsx, given by entry.server.tsx); none in the browser. */
export const ServerPageScriptsContext = createContext<ComponentType | null>(null);

/** The server's text, kept: React leaves a hydrated element's inner HTML and attributes as they are. */
const AS_WRITTEN = { __html: " " };

/**
 * Remix's `<Scripts>`, started after the page's first paint (docs/decisions/026). The server draws
 * the page's three scripts; in the browser they hydrate as written and stay as they are (a script
 * runs once, when the parser or the starter adds it). The browser's copy is only this.
 */
export function PageScripts() {
  const ServerPageScripts = useContext(ServerPageScriptsContext);
  if (ServerPageScripts) return <ServerPageScripts />;
  return [0, 1, 2].map((index) => <script key={index} suppressHydrationWarning dangerouslySetInnerHTML={AS_WRITTEN} />);
}
