/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // The server's composition root is compiled with the app into build/index.js: one copy of every module (ADR 010).
  server: "./server/main.ts",
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
