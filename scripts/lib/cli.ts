/**
 * Small helpers shared by the developer scripts (catalog-import,
 * catalog-synth, bench): flag parsing and the database target they work on.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { DatabaseTarget } from "../../app/db/database.server";

type CliOptions = NonNullable<ParseArgsConfig["options"]>;

/**
 * The script's flags parsed by node:util `parseArgs`, strictly: an unknown
 * flag, a missing value or a stray argument is a UsageError, so a typo never
 * silently falls back to a default. `--name value` and `--name=value` both work.
 */
export function parseCli<T extends CliOptions>(argv: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(usageMessage(error));
  }
}

function usageMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^' ]+)/.exec(message)?.[1] ?? "";
  switch ((error as { code?: string }).code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${quoted}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return `${quoted} needs a value`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument ${quoted}`;
    default:
      return message;
  }
}

/** `--help` / `-h`, which every script accepts. */
export const HELP_OPTION = { help: { type: "boolean", short: "h" } } as const;

/** The flags that name a database target; see resolveTarget. */
export const TARGET_OPTIONS = { "database-url": { type: "string" }, "pglite-dir": { type: "string" } } as const;

export type TargetFlags = { "database-url"?: string; "pglite-dir"?: string };

/** A whole-number flag value (underscores and commas allowed: `100_000`, `100,000`). */
export function intOption(raw: string | undefined, name: string, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  const value = Number(raw.replace(/[_,]/g, ""));
  if (!Number.isInteger(value) || value < min) throw new UsageError(`--${name} must be an integer >= ${min} (got "${raw}")`);
  return value;
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
export function resolveTarget(flags: TargetFlags): ResolvedTarget {
  const url = flags["database-url"];
  const dir = flags["pglite-dir"];
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
