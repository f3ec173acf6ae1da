import { createContext, createElement, useContext, type HTMLAttributes, type ReactElement, type ReactNode } from "react";

export interface KeptMarkupProps {
  as: "article" | "div" | "ul" | "tbody";
  attributes?: HTMLAttributes<HTMLElement>;
  /**
   * Everything the children's markup depends on besides the build's own constants: the same key must
   * always draw the same markup. Asked for on the server only (the browser has no cache to look in).
   */
  markupKey: () => string;
  /**
   * One element, of the component that draws the part: when its markup is kept, that component is not
   * drawn, so none of its own elements are made (a list of children would be made on every page).
   */
  children: ReactElement;
  /**
   * What the children need around them when drawn on their own, outside the page: no context of the page
   * reaches them there (a context with a default would silently draw other markup). Unset: nothing.
   */
  alone?: (children: ReactNode) => ReactElement;
}

/**
 * The server's `KeptMarkup` (app/http/markup-cache.server.ts, given by entry.server.tsx; decision 031):
 * the element with its children's markup from the cache once drawn for the same key. The browser has none.
 */
export const MarkupCacheContext = createContext<((props: KeptMarkupProps) => ReactElement) | null>(null);

/**
 * An element whose children the server writes from its markup cache once it has drawn them for the same
 * key: React hydrates them in the browser as if it had drawn them this time (the markup is the same).
 * Only for markup drawn often and alike for every shopper (product cards, the menus, the footer's reviews).
 */
export function KeptMarkup(props: KeptMarkupProps) {
  const kept = useContext(MarkupCacheContext);
  return kept ? kept(props) : createElement(props.as, props.attributes, props.children);
}
