import { matchRoutes, UNSAFE_RemixContext } from "@remix-run/react";
import { useContext, type ContextType } from "react";
import { UNSAFE_DataRouterContext } from "react-router-dom";
import { useNonce } from "~/http/nonce";

type RemixContextValue = NonNullable<ContextType<typeof UNSAFE_RemixContext>>;
type StaticRouter = NonNullable<ContextType<typeof UNSAFE_DataRouterContext>>["router"];
type Manifest = RemixContextValue["manifest"];

interface PageScriptTexts {
  context: string;
  modules: string;
  starter: string;
}

/**
 * The page's three scripts as the server writes them (`PageScripts`, app/components/layout/page-scripts.tsx,
 * draws this on the server), so the browser's script carries none of it. It tells `<RemixServer>` it drew
 * them (`renderMeta`), so single fetch streams the loaders' data after them.
 */
export function ServerPageScripts() {
  const nonce = useNonce();
  const remix = useContext(UNSAFE_RemixContext);
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  if (!remix || !dataRouter) throw new Error("PageScripts is drawn inside <RemixServer>");
  if (remix.renderMeta) remix.renderMeta.didRenderScripts = true;
  const texts = pageScriptTexts(remix, dataRouter.router);
  return (
    <>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: texts.context }} />
      <script nonce={nonce} type="text/x-remix-module" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: texts.modules }} />
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: texts.starter }} />
    </>
  );
}

/**
 * The texts of the page's three scripts:
 * - `context`: Remix's hand-off (`window.__remixContext`, and the stream single fetch fills);
 * - `modules`: what Remix's own module script does (import the page's route modules, the partial
 *   manifest lazy route discovery starts from, then the entry), left inert by its type;
 * - `starter`: a classic script that runs `modules` once the browser has painted the page
 *   (decision 026).
 */
function pageScriptTexts(remix: RemixContextValue, router: StaticRouter): PageScriptTexts {
  const { manifest, future, isSpaMode } = remix;
  const lazyDiscovery = future.v3_lazyRouteDiscovery === true && !isSpaMode;
  const routeIds = router.state.matches.map((match) => match.route.id);
  const stream = future.v3_singleFetch
    ? "window.__remixContext.stream = new ReadableStream({start(controller){window.__remixContext.streamController = controller;}}).pipeThrough(new TextEncoderStream());"
    : "";
  const modules = [
    manifest.hmr?.runtime ? `import ${JSON.stringify(manifest.hmr.runtime)};` : "",
    lazyDiscovery ? "" : `import ${JSON.stringify(manifest.url)};`,
    ...routeIds.map((id, index) => `import * as route${index} from ${JSON.stringify(manifest.routes[id].module)};`),
    lazyDiscovery ? `window.__remixManifest = ${scriptJson(partialManifest(manifest, router))};` : "",
    `window.__remixRouteModules = {${routeIds.map((id, index) => `${JSON.stringify(id)}:route${index}`).join(",")}};`,
    `import(${JSON.stringify(manifest.entry.module)});`,
  ];
  const firstLoad = new Set([
    ...(lazyDiscovery ? [] : [manifest.url]),
    manifest.entry.module,
    ...manifest.entry.imports,
    ...routeIds.flatMap((id) => [...(manifest.routes[id].imports ?? []), manifest.routes[id].module]),
  ]);
  return {
    context: `window.__remixContext = ${remix.serverHandoffString};${stream}`,
    modules: modules.filter(Boolean).join("\n"),
    starter: startAfterFirstPaint([...firstLoad]),
  };
}

/**
 * As Remix's own: the routes the page matched, and those its parent paths match (pathless and index
 * children lazy discovery would otherwise ask for at once). What parent paths match depends only on
 * the build's routes, so it is worked out once per set of paths: React Router ranks the whole route
 * tree on every match.
 */
function partialManifest(manifest: Manifest, router: StaticRouter): Manifest {
  const routeIds = new Set(router.state.matches.map((match) => match.route.id));
  for (const id of parentPathRouteIds(manifest, router)) routeIds.add(id);
  return { ...manifest, routes: Object.fromEntries([...routeIds].map((id) => [id, manifest.routes[id]])) };
}

const parentMatchesByBuild = new WeakMap<Manifest["routes"], Map<string, string[]>>();
/** Past this many sets of parent paths (pages under ids, such as an order's claim page) the memory starts again. */
const REMEMBERED_PARENT_PATHS = 1000;

function parentPathRouteIds(manifest: Manifest, router: StaticRouter): string[] {
  const segments = router.state.location.pathname.split("/").filter(Boolean);
  segments.pop();
  const key = segments.join("/");
  let remembered = parentMatchesByBuild.get(manifest.routes);
  if (!remembered) parentMatchesByBuild.set(manifest.routes, (remembered = new Map()));
  let ids = remembered.get(key);
  if (!ids) {
    const parentPaths = ["/", ...segments.map((_, index) => `/${segments.slice(0, index + 1).join("/")}`)];
    ids = parentPaths.flatMap((path) => (matchRoutes(router.routes, path, router.basename) ?? []).map((match) => match.route.id));
    if (remembered.size >= REMEMBERED_PARENT_PATHS) remembered.clear();
    remembered.set(key, ids);
  }
  return ids;
}

/**
 * A classic inline script that starts the page's modules once the browser has painted the page, so
 * the first paint and its largest image do not share the connection or the main thread with the
 * page's script. It waits for the first frame (`requestAnimationFrame`), or for the first `paint`
 * performance entry or the load event if either comes first (a test's paused fake clock holds
 * animation frames back). It then preloads every first-load module, three links per task (each costs
 * the main thread up to a millisecond on a slow machine), and last runs the inert module script just
 * before it, with this script's nonce. A hidden tab paints nothing, so there it starts at once.
 */
function startAfterFirstPaint(paths: string[]): string {
  return (
    "(function(d,s){" +
    `var p=${scriptJson(paths)},i=0,o,q=new MessageChannel();` +
    "function add(h){var l=d.createElement('link');l.rel='modulepreload';l.href=h;d.head.appendChild(l)}" +
    "q.port1.onmessage=function(){if(i<p.length){p.slice(i,i+=3).forEach(add);q.port2.postMessage(0)}" +
    "else{var m=d.createElement('script');m.type='module';m.nonce=s.nonce;m.textContent=s.previousElementSibling.textContent;d.body.appendChild(m)}};" +
    "function go(){if(o===0)return;if(o)o.disconnect();o=0;q.port2.postMessage(0)}" +
    "if(d.visibilityState==='hidden'||(PerformanceObserver.supportedEntryTypes||[]).indexOf('paint')<0)go();" +
    "else{requestAnimationFrame(go);o=new PerformanceObserver(go);o.observe({type:'paint',buffered:true});addEventListener('load',go)}" +
    "})(document,document.currentScript)"
  );
}

/** JSON that cannot end the script element it is written into, nor a line of it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
