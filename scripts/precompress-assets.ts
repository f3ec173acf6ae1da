import { precompressAssets } from "./lib/precompress";

// The client build's hashed files, once per build (`npm run build`).
const directory = "public/build";
const { files, bytes, brotliBytes } = await precompressAssets(directory);
console.log(`Brotli copies of ${files} files in ${directory}: ${Math.round(bytes / 1024)} KB -> ${Math.round(brotliBytes / 1024)} KB.`);
