/**
 * The outline of a test runner's output: which lines report work that
 * passed (a passing test, its output, a package or class that passed) and
 * where a failing test's own output lies. One outliner per ecosystem, read
 * from the runner's own markers: a log without them has no outline.
 */
import type { LogLine } from '../formats/index.ts';

/** Indexes into the lines, both ends included. */
export interface Span {
  readonly from: number;
  readonly to: number;
}

export interface TestOutline {
  /** Indexes of lines that report passing work: never why the job failed. */
  readonly passing: ReadonlySet<number>;
  /** Runs of consecutive lines that a failing test printed. */
  readonly failing: readonly Span[];
}

export type Outliner = (lines: readonly LogLine[]) => TestOutline;

/** Consecutive indexes as spans: [3, 4, 5, 9] is 3–5 and 9–9. */
export const spansOf = (indexes: Iterable<number>): Span[] => {
  const spans: Span[] = [];
  for (const i of [...indexes].sort((a, b) => a - b)) {
    const last = spans.at(-1);
    if (last && last.to === i - 1) spans[spans.length - 1] = { from: last.from, to: i };
    else if (!last || last.to < i) spans.push({ from: i, to: i });
  }
  return spans;
};

export const indentOf = (text: string): number => /^\s*/.exec(text)?.[0].length ?? 0;
