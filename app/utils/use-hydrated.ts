import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server render and whenever React hydrates server markup (so markup matches, also
 * in a part that hydrates later, e.g. a `deferred` component), true once that part runs script and
 * in anything drawn in the browser. Components use it to add what only works with script, e.g. a
 * field telling an action to answer with data.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
