import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README is for someone who just cloned the repository, and docs/ for
 * whoever works on the store: neither may point at things a reader does not
 * have (a tracker's issue numbers, sections of a specification they were
 * never given) or at files and headings that are not there.
 */
const README = "README.md";
const documents = [README, ...markdownFilesUnder("docs")];

describe("README and docs", () => {
  it("keep the README short enough to read", () => {
    const lines = readFileSync(README, "utf8").trimEnd().split("\n").length;
    expect(lines).toBeLessThanOrEqual(200);
  });

  it.each(documents)("%s cites no issue, task or specification section", (file) => {
    const text = readFileSync(file, "utf8");
    expect(text.match(/\b(issue|task)s? #?\d+/gi) ?? []).toEqual([]);
    expect(text.match(/spec's section|§\s*\d/gi) ?? []).toEqual([]);
  });

  it("keeps only the bench results the docs cite: one result of record per change, the rest in git's history", () => {
    const cited = documents.map((file) => readFileSync(file, "utf8")).join("\n");
    const results = readdirSync("bench/results").filter((name) => !name.startsWith("latest."));
    expect(results.filter((name) => !cited.includes(name.replace(/\.(md|json)$/, "")))).toEqual([]);
  });

  it.each(current(documents))("%s names only files that exist in back-ticked paths", (file) => {
    const missing = codePaths(readFileSync(file, "utf8")).filter((named) => !existsSync(named) && !existsSync(path.join("app", named)));
    expect(missing).toEqual([]);
  });

  it.each(documents)("%s links only to files and headings that exist", (file) => {
    const broken = relativeLinks(readFileSync(file, "utf8")).filter(({ target, fragment }) => {
      const linked = target === "" ? file : path.join(path.dirname(file), target);
      if (!existsSync(linked)) return true;
      return fragment !== "" && linked.endsWith(".md") && !headingAnchors(linked).has(fragment);
    });
    expect(broken.map(({ target, fragment }) => (fragment ? `${target}#${fragment}` : target))).toEqual([]);
  });
});

/**
 * What docs/architecture.md says of the code, checked against it: each outside service is built in one
 * place (the runtime's services), the job queue with the runtime, and which page routes import `.server` modules directly instead of
 * through `app/server-api.ts` (staff and development pages, and the small pages named here: the list only shrinks).
 */
describe("docs/architecture.md", () => {
  const SERVICE_BUILDERS = [
    "emailSenderFor",
    "paymentProvidersFor",
    "shippingRatesFor",
    "selectShipmentTracker",
    "textGeneratorFor",
    "taxServiceFor",
  ];
  const BUILT_HERE = "app/services/store-services.server.ts";
  const PAGES_IMPORTING_SERVER_CODE_DIRECTLY = [
    "chatbot.tsx",
    "compare.tsx",
    "fit.tsx",
    "grill-helper.tsx",
    "heater-helper.tsx",
    "newsletter_.confirm.tsx",
    "newsletter_.unsubscribe.tsx",
    "notify-me_.confirm.tsx",
    "notify-me_.unsubscribe.tsx",
    "order-status._index.tsx",
    "payments.authorizenet.$attemptId.tsx",
    "return-instructions.$number.$authorization.tsx",
    "test-payment.$id.tsx",
  ];

  it("builds every service in the runtime's services and nowhere else in app/ or server/", () => {
    const builders = new RegExp(`\\b(${SERVICE_BUILDERS.join("|")})\\(`);
    const callers = sourceFilesUnder("app", "server")
      .filter((file) => file !== BUILT_HERE && !/\.test\.tsx?$/.test(file))
      .filter((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .some((line) => builders.test(line) && !/^\s*export function/.test(line)),
      );
    expect(callers).toEqual([]);
  });

  it("makes the job queue only with the runtime, and keeps no running queue in a module", () => {
    const makers = sourceFilesUnder("app", "server")
      .filter((file) => !/\.test\.tsx?$/.test(file))
      .filter((file) => /\bcreateJobs\(\)/.test(readFileSync(file, "utf8").replace(/export function createJobs\(\)/, "")));
    expect(makers).toEqual(["app/runtime.server.ts"]);
    const queue = readFileSync("app/jobs/queue.server.ts", "utf8");
    expect(queue.match(/^(let|var) /gm)).toBeNull();
  });

  it("lets only staff, development and the named pages import .server modules directly", () => {
    const direct = readdirSync("app/routes")
      .filter((name) => name.endsWith(".tsx") && /export default/.test(readFileSync(path.join("app/routes", name), "utf8")))
      .filter((name) => /from "~\/[^"]*\.server"/.test(readFileSync(path.join("app/routes", name), "utf8")))
      .filter((name) => !/^(_staff|dev)\./.test(name));
    expect(direct).toEqual(PAGES_IMPORTING_SERVER_CODE_DIRECTLY);
  });
});

function sourceFilesUnder(...directories: string[]): string[] {
  return directories
    .flatMap((directory) => readdirSync(directory, { recursive: true, encoding: "utf8" }).map((name) => path.join(directory, name)))
    .filter((file) => /\.tsx?$/.test(file))
    .sort();
}

/** The documents that say what holds now: a superseded decision records what held then, with the paths it had. */
function current(files: string[]): string[] {
  return files.filter((file) => !/^- Status: superseded/m.test(readFileSync(file, "utf8")));
}

/**
 * Repository files named in inline code: `server/app.ts`, `app/http/body-limits.ts`, or a path under app/ as
 * the code names it (`utils/cache-control.server.ts`). Only names with a file extension or a trailing slash
 * count, none with a wildcard or placeholder, none of a package's own files (`dist/server.js`) and none of what
 * builds, tests and backups write (a fresh clone has none of it).
 */
function codePaths(markdown: string): string[] {
  const withoutBlocks = markdown.replace(/^```[\s\S]*?^```/gm, "");
  return [...withoutBlocks.matchAll(/`([\w.$-]+(?:\/[\w.$[\]-]*)+)`/g)]
    .map((match) => match[1])
    .filter((named) => /\.(ts|tsx|md|json|ya?ml|sql|css|js|mjs|png|svg)$|\/$/.test(named))
    .filter(
      (named) =>
        !named.startsWith("../") && !/^(dist|node_modules|build|public\/build|test-results|playwright-report|data|backups)\//.test(named),
    );
}

function markdownFilesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join(directory, name))
    .filter((file) => statSync(file).isFile())
    .sort();
}

/** Markdown without fenced code blocks and inline code, where brackets and headings mean nothing. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** Targets of Markdown links and images and of HTML src/href attributes that stay in the repository. */
function relativeLinks(markdown: string): Array<{ target: string; fragment: string }> {
  const text = prose(markdown);
  const targets = [
    ...[...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]),
    ...[...text.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]),
  ];
  return targets
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const [file, fragment = ""] = target.split("#");
      return { target: decodeURI(file), fragment };
    });
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function headingAnchors(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const headings = readFileSync(file, "utf8")
    .replace(/^```[\s\S]*?^```/gm, "")
    .matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm);
  for (const [, heading] of headings) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}
