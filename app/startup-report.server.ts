import { formatNumber } from "./utils/number-format";
/**
 * What the store prints while it starts: one line per step with its outcome
 * and time, so a slow first start (the catalogue loading into a fresh
 * embedded database) never looks hung. On a terminal, a long step redraws a
 * progress bar in place; elsewhere (CI, containers) only the final lines.
 */
export type ProgressFn = (done: number, total: number) => void;

export interface StartupReport {
  /** Runs one step and prints `name  summary  time`; a step that throws prints nothing and rethrows. */
  step<T>(name: string, run: (progress: ProgressFn) => Promise<T>, summary: (result: T) => string): Promise<T>;
  /** The line of a step that ran before the report could start (loading the build the report itself is part of). */
  done(name: string, summary: string, ms: number): void;
  /** A line of its own, such as a warning a step found. */
  note(line: string): void;
}

interface ReportStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

const NAME_WIDTH = 12;
const BAR_WIDTH = 24;

export function startupReport(stream: ReportStream = process.stdout, now: () => number = () => performance.now()): StartupReport {
  const redraws = Boolean(stream.isTTY);
  return {
    async step(name, run, summary) {
      const started = now();
      let drawn = false;
      const progress: ProgressFn = (done, total) => {
        if (!redraws || total <= 0) return;
        drawn = true;
        stream.write(`\r${label(name)}${progressBar(done, total)}`);
      };
      const result = await run(progress).finally(() => {
        if (drawn) stream.write("\r\u001b[2K");
      });
      stream.write(`${label(name)}${summary(result)} (${seconds(now() - started)})\n`);
      return result;
    },
    done(name, summary, ms) {
      stream.write(`${label(name)}${summary} (${seconds(ms)})\n`);
    },
    note(line) {
      stream.write(`${" ".repeat(NAME_WIDTH + 2)}${line}\n`);
    },
  };
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function label(name: string): string {
  return `  ${name.padEnd(NAME_WIDTH)}`;
}

function progressBar(done: number, total: number): string {
  const filled = Math.round((Math.min(done, total) / total) * BAR_WIDTH);
  return `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${formatNumber(done)} / ${formatNumber(total)}`;
}
