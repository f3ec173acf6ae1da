import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";

const CONTENT_TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=UTF-8",
  ".css": "text/css; charset=UTF-8",
};

/**
 * The client build's brotli copies (`NAME.br`, written at quality 11 by `npm run build`,
 * scripts/lib/precompress.ts) for browsers that accept brotli: a script costs a slow phone about 12%
 * fewer bytes than compressing it per request could, and the server no CPU. Other requests (no copy,
 * no brotli) go on to the plain file, which the compression middleware compresses as before.
 * The file list is read once: a build's files never change while it runs.
 */
export function precompressedAssets(directory: string, cacheOptions: { maxAge: string; immutable: boolean }): RequestHandler {
  const copies = brotliCopiesIn(directory);
  const serveCopy = express.static(directory, {
    ...cacheOptions,
    index: false,
    redirect: false,
    setHeaders(res, file) {
      res.setHeader("Content-Encoding", "br");
      res.setHeader("Content-Type", CONTENT_TYPES[path.extname(file.slice(0, -".br".length))] ?? "application/octet-stream");
    },
  });
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !copies.has(req.path)) return next();
    res.vary("Accept-Encoding");
    if (!acceptsBrotli(req.headers["accept-encoding"])) return next();
    const originalUrl = req.url;
    req.url = `${req.path}.br`;
    serveCopy(req, res, (error?: unknown) => {
      req.url = originalUrl;
      next(error);
    });
  };
}

/** The URL paths (`/NAME.js`, relative to `directory`) that have a `.br` copy. */
function brotliCopiesIn(directory: string): Set<string> {
  if (!existsSync(directory)) return new Set();
  const names = readdirSync(directory, { recursive: true, encoding: "utf8" });
  const present = new Set(names);
  return new Set(
    names
      .filter((name) => name.endsWith(".br") && present.has(name.slice(0, -".br".length)))
      .map((name) => `/${name.slice(0, -".br".length).split(path.sep).join("/")}`),
  );
}

/** Whether an Accept-Encoding header allows brotli: `br` (or `*`) listed with a quality above 0. */
export function acceptsBrotli(header: string | undefined): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const part of header.split(",")) {
    const [name, ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    const quality = parameters.find((parameter) => parameter.startsWith("q="));
    const accepted = quality === undefined || Number(quality.slice(2)) > 0;
    if (name === "br") return accepted;
    if (name === "*") wildcard = accepted;
  }
  return wildcard;
}
