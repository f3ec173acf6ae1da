import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ComponentType } from "react";
import { hasInteracted, INTERACTIONS } from "./carousel/interaction";

/** How near the screen a deferred component is when its script starts loading. */
const VISIBLE_MARGIN = "300px";
/** The longest an `idle` component waits for the browser to be idle before its script loads anyway. */
const IDLE_TIMEOUT_MS = 2000;

interface DeferredOptions {
  /**
   * When the script loads: `visible` once the component comes near the screen (default); `idle` once
   * the page is idle after hydrating (requestIdleCallback, at most IDLE_TIMEOUT_MS) or at the shopper's
   * first interaction, whichever comes first: for small widgets that should cost nothing at page load.
   */
  until?: "visible" | "idle";
  /** Names the wrapper (`data-deferred`), for tests that wait for it to hydrate. */
  name?: string;
}

/**
 * A component whose script is not part of the page's first load. The server renders it in full
 * (its module is in the server bundle, loaded at start-up), so the page shows it, and works as plain
 * HTML, before and without script. In the browser its chunk loads once the component comes near the
 * screen (or, with `until: "idle"`, once the page is idle or the shopper interacts); until then React
 * leaves the server's HTML as it is, without running it (a Suspense boundary that is still loading
 * stays dehydrated), and hydrates it once loaded. Drawn after the first load (a client-side
 * navigation) or drawn again with new props before it loaded, it loads at once.
 *
 * It renders inside a `display: contents` element (`.deferred`, app.css), which the layout ignores;
 * that element gets `data-hydrated` once the component has hydrated.
 */
export function deferred<P extends object>(
  load: () => Promise<ComponentType<P>>,
  { until = "visible", name }: DeferredOptions = {},
): ComponentType<P> {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  let onServer: ComponentType<P> | undefined;
  if (typeof document === "undefined") void load().then((component) => (onServer = component));
  const InBrowser: ComponentType<P> = lazy(async () => {
    await opened;
    return { default: await load() };
  }) as unknown as ComponentType<P>; // lazy() adds ref typing that a generic P cannot satisfy

  function Deferred(props: P) {
    const ref = useRef<HTMLDivElement>(null);
    const hydrated = useRef(false);
    const [loaded, setLoaded] = useState(false);
    const markLoaded = useCallback(() => setLoaded(true), []);
    // Drawn again before it loaded (new props), React drops the server's HTML and shows nothing: load now.
    if (hydrated.current) open();
    useEffect(() => {
      hydrated.current = true;
      if (until === "idle") return whenIdleOrInteraction(open);
      // What the server drew, kept while the script loads; nothing there means it was drawn here. Every
      // element is watched: the first may be one that takes no room (a hidden form), which never intersects.
      const drawn = Array.from(ref.current?.children ?? []);
      if (drawn.length === 0 || typeof IntersectionObserver === "undefined") return open();
      const observer = new IntersectionObserver(
        (entries) => {
          if (!entries.some((entry) => entry.isIntersecting)) return;
          observer.disconnect();
          open();
        },
        { rootMargin: VISIBLE_MARGIN },
      );
      for (const element of drawn) observer.observe(element);
      return () => observer.disconnect();
    }, []);
    const Component: ComponentType<P> = onServer ?? InBrowser;
    return (
      <div ref={ref} className="deferred" data-deferred={name} data-hydrated={loaded ? "" : undefined}>
        <Suspense fallback={null}>
          <Component {...props} />
          <OnHydrated run={markLoaded} />
        </Suspense>
      </div>
    );
  }
  return Deferred;
}

/** Renders nothing; runs `run` once the Suspense boundary around it has hydrated (its effects run with the boundary's). */
function OnHydrated({ run }: { run: () => void }) {
  useEffect(run, [run]);
  return null;
}

/** Runs `run` once the browser is idle (at most IDLE_TIMEOUT_MS from now) or at the first interaction; returns a cancel. */
function whenIdleOrInteraction(run: () => void): () => void {
  if (hasInteracted()) {
    run();
    return () => {};
  }
  const listening = { passive: true, capture: true } as const;
  const idle = typeof window.requestIdleCallback === "function" ? window.requestIdleCallback(once, { timeout: IDLE_TIMEOUT_MS }) : null;
  const timer = idle === null ? window.setTimeout(once, IDLE_TIMEOUT_MS) : null;
  for (const type of INTERACTIONS) window.addEventListener(type, once, listening);
  function cancel() {
    if (idle !== null) window.cancelIdleCallback(idle);
    if (timer !== null) window.clearTimeout(timer);
    for (const type of INTERACTIONS) window.removeEventListener(type, once, listening);
  }
  function once() {
    cancel();
    run();
  }
  return cancel;
}
