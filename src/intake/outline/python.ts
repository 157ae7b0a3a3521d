/**
 * pytest and unittest: a test that passed, was skipped or failed as
 * expected is passing work. pytest's `-v` result lines
 * (`tests/test_a.py::test_b PASSED [ 12%]`, and `[gw0] [ 12%] PASSED
 * tests/test_a.py::test_b` under xdist), its progress lines of a file whose
 * tests all passed (`tests/test_a.py ....s.. [ 40%]`, and their
 * continuation `......... [ 41%]`), the `-rA` summary's `PASSED …` lines
 * and the `PASSES` section (what passing tests printed); unittest's
 * `test_b (pkg.TestA) ... ok`. A progress line with `F` or `E` is not.
 */
import type { Outliner } from './types.ts';
import { pattern } from '../../util/pattern.ts';

const PASSED_STATUS = /(?:PASSED|SKIPPED|XFAIL|XPASS)/;
/** `path::test[id] STATUS (reason) [ 12%]`: the status is the line's last word before the reason and percentage. */
const VERBOSE = pattern()`^\S+\.py::\S.*?\s${PASSED_STATUS}(?:\s+\(.*\))?(?:\s+\[\s*\d+%\])?\s*$`;
/** xdist's `[gw0] [ 12%] PASSED path::test` and the `-rA` summary's `PASSED path::test`. */
const STATUS_FIRST = pattern()`^(?:\[gw\d+\]\s+(?:\[\s*\d+%\]\s+)?)?${PASSED_STATUS}\s+\S+\.py(?:::|:\d+|\s|$)`;
/** A file's progress without a failure or an error, or the continuation of one. */
const PROGRESS = /^(?:\S+\.py [.sxX]+(?:\s+\[\s*\d+%\])?|[.sxX]+\s+\[\s*\d+%\])\s*$/;
/**
 * unittest's verbose `test_x (mod.Class) [description] ... ok`, as
 * `/^\w+ \([\w.]+\)(?: \S.*?)? \.\.\. (?:ok|skipped\b.*|expected failure)\s*$/` reads it, in
 * parts: that lazy description before the trailing blanks backtracks quadratically.
 */
const unittestPassed = (text: string): boolean => {
  const head = /^\w+ \([\w.]+\)/.exec(text);
  const rest = head ? text.slice(head[0].length).trimEnd() : '';
  return (
    head !== null &&
    /^.*$/.test(rest) &&
    (/^(?: \S.*)? \.\.\. (?:ok|expected failure)$/.test(rest) ||
      /^(?: \S.*?)? \.\.\. skipped\b/.test(rest))
  );
};
/** pytest's section headings: `===== PASSES =====`, `===== FAILURES =====`, `===== 1 failed in 0.2s =====`. */
const SECTION = /^=+ (.+?) =+\s*$/;

export const pytest: Outliner = (lines) => {
  const passing = new Set<number>();
  let inPasses = false;
  lines.forEach(({ text }, i) => {
    const section = SECTION.exec(text);
    if (section) inPasses = section[1] === 'PASSES';
    if (
      inPasses ||
      VERBOSE.test(text) ||
      STATUS_FIRST.test(text) ||
      PROGRESS.test(text) ||
      unittestPassed(text)
    )
      passing.add(i);
  });
  return { passing, failing: [] };
};
