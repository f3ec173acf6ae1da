import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const FILE = path.resolve("test-results/resilience-figures.json");

/**
 * Keeps the figures of the last resilience run in test-results/resilience-figures.json
 * (and prints them), for the README's reliability section.
 */
export function recordFigures(name: string, figures: object): void {
  let all: Record<string, unknown> = {};
  try {
    all = JSON.parse(readFileSync(FILE, "utf8")) as Record<string, unknown>;
  } catch {
    // first figures of this run
  }
  all[name] = { ...figures, at: new Date().toISOString() };
  mkdirSync(path.dirname(FILE), { recursive: true });
  writeFileSync(FILE, `${JSON.stringify(all, null, 2)}\n`);
  console.log(`resilience figures (${name}): ${JSON.stringify(figures)}`);
}
