/**
 * Server code that must never reach the browser: the database drivers and
 * ORM, zod (schemas live in server modules), the image resizer (sharp), and any
 * `*.server.ts` module (the product drawings among them).
 *
 * Every JavaScript file of the client build (`public/build`, dynamic-import
 * chunks included) is checked twice:
 * - by esbuild's metafile (`build/metafile.js.json`), which lists the input
 *   files of each chunk exactly. The Remix compiler replaces a `*.server`
 *   import with an `empty-module:` stand-in; a real `app/…/x.server.ts` input
 *   with bytes in a chunk means that module was bundled anyway.
 * - by strings that survive minification (checked against minified bundles
 *   of each package), a second opinion that needs no metafile.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";

export type ServerOnlyCode = "drizzle-orm" | "postgres" | "@electric-sql/pglite" | "zod" | "sharp" | "*.server.ts";
export const SERVER_ONLY_PACKAGES: readonly ServerOnlyCode[] = ["drizzle-orm", "postgres", "@electric-sql/pglite", "zod", "sharp"];

const CONTENT_MARKERS: Record<Exclude<ServerOnlyCode, "*.server.ts">, RegExp> = {
  "drizzle-orm": /drizzle:(?:entityKind|Name|Columns|IsDrizzleTable)/,
  postgres: /PostgresError|CONNECT_TIMEOUT/,
  "@electric-sql/pglite": /PGliteActive|pglite\.wasm|pglite\.data/,
  zod: /ZodError|\$ZodType/,
  sharp: /limitInputPixels|sharp-libvips/,
};

export interface ServerCodeFinding {
  /** The chunk, relative to the project root. */
  file: string;
  code: ServerOnlyCode;
  /** The input files (metafile) or the marker (content) that gave it away. */
  evidence: string[];
  detection: "metafile" | "content";
}

export interface BrowserCodeReport {
  /** Every JS file of the client build that was checked. */
  files: string[];
  /** Whether the metafile described this very build (else only the markers were used). */
  metafileUsed: boolean;
  findings: ServerCodeFinding[];
}

function packageOfInput(input: string): string | null {
  const at = input.lastIndexOf("node_modules/");
  if (at < 0) return null;
  const parts = input.slice(at + "node_modules/".length).split("/");
  return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** What server-only code one metafile input is, if any. */
export function serverOnlyCodeOfInput(input: string): ServerOnlyCode | null {
  const pkg = packageOfInput(input);
  if (pkg) return (SERVER_ONLY_PACKAGES as readonly string[]).includes(pkg) ? (pkg as ServerOnlyCode) : null;
  // `empty-module:~/x.server` is the compiler's empty stand-in: that is the rule working.
  if (input.includes(":")) return null;
  return /\.server\.[cm]?[jt]sx?$|\.server\//.test(input) ? "*.server.ts" : null;
}

function javascriptFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return javascriptFiles(full);
    return /\.[cm]?js$/.test(entry.name) ? [full] : [];
  });
}

type MetaOutputs = Record<string, { inputs?: Record<string, { bytesInOutput?: number }> }>;

export function findServerCodeInBrowser(paths: { root?: string; publicBuildDir?: string; metafile?: string } = {}): BrowserCodeReport {
  const root = path.resolve(paths.root ?? ".");
  const publicBuildDir = path.resolve(root, paths.publicBuildDir ?? "public/build");
  const metafilePath = path.resolve(root, paths.metafile ?? "build/metafile.js.json");
  const files = javascriptFiles(publicBuildDir);
  if (files.length === 0) throw new Error(`no JavaScript in ${publicBuildDir}: run \`npx remix build\` first`);
  const relative = (file: string) => path.relative(root, file);
  const findings: ServerCodeFinding[] = [];

  let outputs: MetaOutputs | null = null;
  if (existsSync(metafilePath)) {
    outputs = (JSON.parse(readFileSync(metafilePath, "utf8")) as { outputs?: MetaOutputs }).outputs ?? {};
  }
  const byFile = new Map(Object.entries(outputs ?? {}).map(([output, info]) => [path.resolve(root, output), info]));
  // The manifest is written by Remix itself, not by esbuild; every chunk must be in the metafile.
  const chunks = files.filter((file) => !/^manifest-[A-Za-z0-9]+\.js$/.test(path.basename(file)));
  const metafileUsed = outputs !== null && chunks.every((file) => byFile.has(file));

  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const [code, marker] of Object.entries(CONTENT_MARKERS) as Array<[ServerOnlyCode, RegExp]>) {
      const match = marker.exec(text);
      if (match) findings.push({ file: relative(file), code, evidence: [match[0]], detection: "content" });
    }
    if (!metafileUsed) continue;
    const evidence = new Map<ServerOnlyCode, string[]>();
    for (const [input, contribution] of Object.entries(byFile.get(file)?.inputs ?? {})) {
      const code = serverOnlyCodeOfInput(input);
      if (code && contribution.bytesInOutput) evidence.set(code, [...(evidence.get(code) ?? []), input]);
    }
    for (const [code, inputs] of evidence)
      findings.push({ file: relative(file), code, evidence: inputs.slice(0, 5), detection: "metafile" });
  }
  return { files: files.map(relative), metafileUsed, findings };
}

export function formatFindings(findings: readonly ServerCodeFinding[]): string[] {
  return findings.map((f) => `${f.file} holds ${f.code} (${f.detection}: ${f.evidence.join(", ")})`);
}
