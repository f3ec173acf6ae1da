import { readFile, writeFile } from "node:fs/promises";
import { manifestFiles, manifestUrlToFile, newestManifestFile, parseManifest } from "./bundle-size";

/**
 * V8's explicit compile hint (Chrome 136+): every function in a file that starts with it is compiled
 * while the file streams in, on a background thread, instead of on the main thread the first time it is
 * called. Other engines read it as a comment.
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

/**
 * Puts the compile hint at the top of every script the Remix manifest names: the entry, React, React DOM,
 * Remix, and each route's module and shared chunks, which a page runs in full as it hydrates. Parts loaded
 * by `import()` on idle, near the screen or on use are left to V8's lazy compiling. Run once per build,
 * before the brotli copies are written; running it again changes nothing. Returns the files it marked.
 */
export async function markFirstLoadScripts(directory: string, publicPath = "/build/"): Promise<string[]> {
  const manifest = parseManifest(await readFile(newestManifestFile(directory), "utf8"));
  const marked: string[] = [];
  for (const url of manifestFiles(manifest)) {
    const file = manifestUrlToFile(url, directory, publicPath);
    const text = await readFile(file, "utf8");
    if (text.startsWith(COMPILE_HINT)) continue;
    await writeFile(file, COMPILE_HINT + text);
    marked.push(url);
  }
  return marked;
}
