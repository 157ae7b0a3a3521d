/**
 * Maven Surefire/Failsafe and Gradle: a test class whose own summary says
 * it had no failures and no errors passed, with everything it printed
 * between its `Running` line and that summary (stack traces a passing test
 * logged included); a failing class's output is a span. Gradle's
 * `Class > test PASSED` and `SKIPPED` lines are passing work.
 *
 * Forked or parallel runs interleave classes: when another class starts
 * before the running one's summary, neither is outlined.
 */
import { spansOf, type Outliner } from './types.ts';
import { pattern } from '../../util/pattern.ts';

const LEVEL = /(?:\[(?:INFO|WARNING|ERROR)\]\s+)?/;
const RUNNING = pattern()`^${LEVEL}Running ([\w.$]+)\s*$`;
/** `Tests run: 4, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.4 s [<<< FAILURE!] [- in|-- in com.x.FooTest]`. */
const CLASS_SUMMARY = pattern()`^${LEVEL}Tests run: \d+, Failures: (\d+), Errors: (\d+), Skipped: \d+, Time elapsed: `;

/**
 * The failures, errors and class of a summary. Its end is read apart: a lazy `.*?` before the
 * class and the trailing blanks backtracks quadratically on a long line that does not end so.
 */
const classSummary = (text: string): [string, string, string | undefined] | undefined => {
  const head = CLASS_SUMMARY.exec(text);
  const rest = head ? text.slice(head[0].length).trimEnd() : '';
  if (!head || !/^.*$/.test(rest)) return undefined;
  return [head[1] ?? '', head[2] ?? '', /--? in ([\w.$]+)$/.exec(rest)?.[1]];
};
const GRADLE_PASSED = /^[\w.$]+ > .+ (?:PASSED|SKIPPED)\s*$/;

export const surefire: Outliner = (lines) => {
  const passing = new Set<number>();
  const failing: number[] = [];
  let open: { name: string; from: number; alone: boolean } | undefined;
  lines.forEach(({ text }, i) => {
    if (GRADLE_PASSED.test(text)) {
      passing.add(i);
      return;
    }
    const running = RUNNING.exec(text);
    if (running?.[1]) {
      open = { name: running[1], from: i, alone: open === undefined };
      return;
    }
    const summary = classSummary(text);
    if (!summary) return;
    const ended = open;
    open = undefined;
    if (!ended?.alone || (summary[2] !== undefined && summary[2] !== ended.name)) return;
    const passed = summary[0] === '0' && summary[1] === '0';
    for (let k = ended.from; k <= i; k += 1) {
      if (passed) passing.add(k);
      else failing.push(k);
    }
  });
  return { passing, failing: spansOf(failing) };
};
