import { markFirstLoadScripts } from "./lib/compile-hints";
import { precompressAssets } from "./lib/precompress";

// The client build's hashed files, once per build (`npm run build`): first-load scripts get V8's compile
// hint, then every script and style sheet its brotli copy.
const directory = "public/build";
const marked = await markFirstLoadScripts(directory);
console.log(`Compile hint on the ${marked.length} scripts the manifest names (first load of every page).`);
const { files, bytes, brotliBytes } = await precompressAssets(directory);
console.log(`Brotli copies of ${files} files in ${directory}: ${Math.round(bytes / 1024)} KB -> ${Math.round(brotliBytes / 1024)} KB.`);
