import { useEffect, useState } from "react";

let hydrated = false;

/**
 * False in the server render and the first client render (so markup matches),
 * true once the page runs script. Components use it to add what only works
 * with script, e.g. a field telling an action to answer with data.
 */
export function useHydrated(): boolean {
  const [isHydrated, setHydrated] = useState(hydrated);
  useEffect(() => {
    hydrated = true;
    setHydrated(true);
  }, []);
  return isHydrated;
}
