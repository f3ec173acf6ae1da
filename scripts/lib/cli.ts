/**
 * Small helpers shared by the developer scripts (catalog-synth, bench):
 * flag parsing and the database target they work on.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { DatabaseTarget } from "../../app/db/database.server";

/** `--name value` or `--name=value`; undefined when absent. Throws when the value is missing. */
export function flagValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === name) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`${name} needs a value`);
      return value;
    }
    if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
  }
  return undefined;
}

export function hasFlag(argv: readonly string[], name: string): boolean {
  return argv.includes(name);
}

/** A positive integer flag (underscores and commas allowed: `100_000`, `100,000`). */
export function intFlag(argv: readonly string[], name: string, fallback: number, min = 1): number {
  const raw = flagValue(argv, name);
  if (raw === undefined) return fallback;
  const value = Number(raw.replace(/[_,]/g, ""));
  if (!Number.isInteger(value) || value < min) throw new UsageError(`${name} must be an integer >= ${min} (got "${raw}")`);
  return value;
}

/** Rejects flags the script does not know, so a typo never silently falls back to a default. */
export function rejectUnknownFlags(argv: readonly string[], known: readonly string[]): void {
  for (const arg of argv) {
    if (!arg.startsWith("--")) continue;
    const name = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
    if (!known.includes(name)) throw new UsageError(`unknown option ${name}`);
  }
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The synthetic catalog's default home; never the store's own `./data/pglite`. */
export const DEFAULT_SYNTH_PGLITE_DIR = "./data/pglite-synth";
const STORE_DEFAULT_PGLITE_DIR = "./data/pglite";

/**
 * The store's own database settings (DATABASE_URL, PGLITE_DIR) from the
 * environment and `.env`, read without validating the rest of the config,
 * so a script can refuse to overwrite them.
 */
export function storeDatabaseSettings(): { databaseUrl?: string; pgliteDir: string } {
  const fromFile: Record<string, string> = {};
  if (existsSync(".env")) {
    for (const line of readFileSync(".env", "utf8").split(/\r?\n/)) {
      const match = /^\s*(?:export\s+)?([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
      if (match) fromFile[match[1]] = match[2].replace(/^(['"])(.*)\1$/, "$2");
    }
  }
  const read = (key: string) => {
    const value = process.env[key] ?? fromFile[key];
    return value && value.trim() !== "" ? value.trim() : undefined;
  };
  return { databaseUrl: read("DATABASE_URL"), pgliteDir: read("PGLITE_DIR") ?? STORE_DEFAULT_PGLITE_DIR };
}

/** host:port/database of a postgres URL, for comparing two URLs that name the same database. */
export function databaseIdentity(url: string): string {
  const parsed = new URL(url);
  const host = parsed.hostname === "localhost" || parsed.hostname === "::1" ? "127.0.0.1" : parsed.hostname;
  return `${host}:${parsed.port || "5432"}${parsed.pathname.replace(/\/+$/, "")}`;
}

/** The URL without its password, for printing. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}

export interface ResolvedTarget {
  target: DatabaseTarget;
  label: string;
  /** True when this is the database the store itself is configured to use. */
  isStoreDatabase: boolean;
}

/**
 * `--database-url URL` or `--pglite-dir DIR` (not both); by default the
 * synthetic PGlite directory. DATABASE_URL from the environment is never used
 * implicitly: a PostgreSQL target must always be named with --database-url.
 */
export function resolveTarget(argv: readonly string[]): ResolvedTarget {
  const url = flagValue(argv, "--database-url");
  const dir = flagValue(argv, "--pglite-dir");
  if (url && dir) throw new UsageError("give either --database-url or --pglite-dir, not both");
  const store = storeDatabaseSettings();
  if (url) {
    if (!/^postgres(ql)?:\/\/\S+$/.test(url)) throw new UsageError("--database-url must be a postgres:// or postgresql:// URL");
    const isStoreDatabase = Boolean(store.databaseUrl) && databaseIdentity(store.databaseUrl!) === databaseIdentity(url);
    return { target: { url }, label: `PostgreSQL ${redactUrl(url)}`, isStoreDatabase };
  }
  const chosen = dir ?? DEFAULT_SYNTH_PGLITE_DIR;
  if (chosen.startsWith("memory://")) return { target: { pgliteDir: chosen }, label: `PGlite ${chosen}`, isStoreDatabase: false };
  const resolved = path.resolve(chosen);
  const isStoreDatabase = resolved === path.resolve(store.pgliteDir) || resolved === path.resolve(STORE_DEFAULT_PGLITE_DIR);
  return { target: { pgliteDir: chosen }, label: `PGlite ${path.relative(process.cwd(), resolved) || "."}`, isStoreDatabase };
}

/** True when a PGlite directory holds a database cluster (opening an empty one creates it, which takes seconds). */
export function pgliteDirExists(dir: string): boolean {
  return dir.startsWith("memory://") || existsSync(path.join(path.resolve(dir), "PG_VERSION"));
}
