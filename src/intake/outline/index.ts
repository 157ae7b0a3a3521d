/**
 * Every ecosystem's test outline of a log, merged: the passing lines of
 * all, the failing spans of all. A heading whose indented children all
 * passed (Pester's `Describing`/`Context`, a spec reporter's `describe`
 * titles) passed too.
 */
import type { LogLine } from '../formats/index.ts';
import { lineSignal } from '../log-signals.ts';
import { dotnetTest } from './dotnet.ts';
import { goTest } from './go.ts';
import { surefire } from './jvm.ts';
import { pytest } from './python.ts';
import { indentOf, type Outliner, type Span, type TestOutline } from './types.ts';

export type { Span, TestOutline } from './types.ts';

const OUTLINERS: readonly Outliner[] = [goTest, surefire, dotnetTest, pytest];

const isBlank = (line: LogLine | undefined): boolean => (line?.text.trim() ?? '') === '';

/** Adds the headings whose indented children (blank lines aside) are all passing; deepest first. */
const passingHeadings = (lines: readonly LogLine[], passing: Set<number>): void => {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const text = lines[i]?.text ?? '';
    // A heading that says something failed stays, whatever its children say (`--- FAIL: TestX` over passing subtests).
    if (passing.has(i) || text.trim() === '' || lineSignal(text) >= 5) continue;
    const depth = indentOf(text);
    let children = 0;
    let all = true;
    for (let k = i + 1; k < lines.length; k += 1) {
      if (isBlank(lines[k])) continue;
      if (indentOf(lines[k]?.text ?? '') <= depth) break;
      children += 1;
      if (!passing.has(k)) {
        all = false;
        break;
      }
    }
    if (children > 0 && all) passing.add(i);
  }
};

export const testOutline = (lines: readonly LogLine[]): TestOutline => {
  const passing = new Set<number>();
  const failing: Span[] = [];
  for (const outline of OUTLINERS.map((outliner) => outliner(lines))) {
    for (const i of outline.passing) passing.add(i);
    failing.push(...outline.failing);
  }
  if (passing.size > 0) passingHeadings(lines, passing);
  return { passing, failing };
};
