/**
 * `go test`: a package's `ok` line, `?` for a package without tests,
 * `=== RUN` and `--- PASS` of a passing test and what it printed are
 * passing work; a failing test's output is a span.
 *
 * With `-v`, Go 1.14 and later stream a test's output between its `=== RUN`
 * (or `=== CONT`, `=== NAME` when parallel tests take turns) and its result
 * line; without `-v`, and in older versions, the output follows the
 * `--- FAIL:` line, indented under it.
 */
import { indentOf, spansOf, type Outliner } from './types.ts';

const MARKER = /^\s*=== (?:RUN|PAUSE|CONT|NAME)\s+(\S+)/;
const RESULT = /^(\s*)--- (PASS|FAIL|SKIP): (\S+)/;
/** `ok  	pkg	0.01s`, `ok  	pkg	(cached)`, `?   	pkg	[no test files]`, `PASS`. */
const PACKAGE_PASSED =
  /^(?:ok\s+\S+\s+(?:\(cached\)|\d+(?:\.\d+)?s\b)|\?\s+\S+\s+\[no test files\]|PASS\s*$)/;
/** The go command fetching modules: progress, never the failure (that line says what went wrong). */
const FETCHING = /^go: (?:downloading|extracting|finding) \S+ v\S+\s*$/;
/** The end of a package's run: `FAIL`, `FAIL	pkg	0.1s`, `ok	pkg …`. */
const PACKAGE_END = /^(?:PASS|FAIL|ok)(?:\s|$)/;

export const goTest: Outliner = (lines) => {
  const passing = new Set<number>();
  /** The test each line belongs to, where the markers say. */
  const owner = new Map<number, string>();
  const outcome = new Map<string, 'pass' | 'fail'>();
  let current: string | undefined;
  /** The result line whose indented report follows it, and its indentation. */
  let reported: { name: string; depth: number } | undefined;
  lines.forEach(({ text }, i) => {
    const marker = MARKER.exec(text);
    const result = RESULT.exec(text);
    if (marker?.[1]) {
      current = marker[1];
      reported = undefined;
      owner.set(i, current);
    } else if (result?.[3]) {
      const name = result[3];
      // A test that failed once (another `-count` run, a retry) stays failed.
      if (outcome.get(name) !== 'fail') outcome.set(name, result[2] === 'FAIL' ? 'fail' : 'pass');
      owner.set(i, name);
      reported = { name, depth: result[1]?.length ?? 0 };
      current = undefined;
    } else if (FETCHING.test(text)) {
      passing.add(i);
    } else if (PACKAGE_PASSED.test(text)) {
      passing.add(i);
      current = undefined;
      reported = undefined;
    } else if (PACKAGE_END.test(text)) {
      current = undefined;
      reported = undefined;
    } else if (reported && (text.trim() === '' || indentOf(text) > reported.depth)) {
      // The result's report, indented under it (blank lines inside it too).
      owner.set(i, reported.name);
    } else {
      reported = undefined;
      if (current !== undefined) owner.set(i, current);
    }
  });
  const failing: number[] = [];
  // A test without a result (a panic or a timeout ended it) is neither.
  for (const [i, name] of owner) {
    if (outcome.get(name) === 'pass') passing.add(i);
    else if (outcome.get(name) === 'fail') failing.push(i);
  }
  return { passing, failing: spansOf(failing) };
};
