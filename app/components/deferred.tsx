import { lazy, Suspense, useEffect, useRef, type ComponentType } from "react";

/** How near the screen a deferred component is when its script starts loading. */
const VISIBLE_MARGIN = "300px";

/**
 * A component whose script is not part of the page's first load. The server renders it in full
 * (its module is in the server bundle, loaded at start-up), so the page shows it, and works as plain
 * HTML, before and without script. In the browser its chunk loads once the component comes near the
 * screen; until then React leaves the server's HTML as it is, without running it (a Suspense boundary
 * that is still loading stays dehydrated), and hydrates it once loaded. Drawn after the first load (a
 * client-side navigation) or drawn again with new props before it came near the screen, it loads at once.
 *
 * It renders inside a `display: contents` element (`.deferred`, app.css), which the layout ignores.
 */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
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
    // Drawn again before it loaded (new props), React drops the server's HTML and shows nothing: load now.
    if (hydrated.current) open();
    useEffect(() => {
      hydrated.current = true;
      // What the server drew, kept while the script loads; nothing there means it was drawn here.
      const drawn = ref.current?.firstElementChild;
      if (!drawn || typeof IntersectionObserver === "undefined") return open();
      const observer = new IntersectionObserver(
        (entries) => {
          if (!entries.some((entry) => entry.isIntersecting)) return;
          observer.disconnect();
          open();
        },
        { rootMargin: VISIBLE_MARGIN },
      );
      observer.observe(drawn);
      return () => observer.disconnect();
    }, []);
    const Component: ComponentType<P> = onServer ?? InBrowser;
    return (
      <div ref={ref} className="deferred">
        <Suspense fallback={null}>
          <Component {...props} />
        </Suspense>
      </div>
    );
  }
  return Deferred;
}
