import { stripAnsi } from '../src/util/text.ts';
import { junitCounts } from './test-reports.ts';
import { parseTap, type TestStatus } from './test-reports.ts';
import type { CheckedRun } from './types.ts';

/**
 * Each test's outcome by name, where the run names its tests: the runner's
 * JUnit report (pytest), go test's line per test (`--- PASS: TestX/sub`,
 * asked for by `-v`), cargo's `test path::name ... ok`, TAP and node:test's
 * spec lines. Undefined when the run names no test (a summary alone): the
 * checks then compare counts.
 */
export const testOutcomes = (run: CheckedRun): Map<string, TestStatus> | undefined => {
  if (run.proof?.junit !== undefined) return junitCounts(run.proof.junit).outcomes;
  const output = stripAnsi(run.output);
  const lines = output.split('\n');
  const found = new Map<string, TestStatus>();
  const set = (name: string, status: TestStatus): void => {
    // A failure anywhere wins over a pass of the same name.
    if (found.get(name) !== 'fail') found.set(name, status);
  };
  const statuses: Record<string, TestStatus> = {
    PASS: 'pass',
    FAIL: 'fail',
    SKIP: 'skip',
    ok: 'pass',
    FAILED: 'fail',
    ignored: 'skip',
  };
  for (const line of lines) {
    const go = /^\s*--- (PASS|FAIL|SKIP): (\S+)/.exec(line);
    if (go?.[1] && go[2]) set(go[2], statuses[go[1]] ?? 'fail');
    const cargo = /^test (\S+) \.\.\. (ok|FAILED|ignored)\b/.exec(line);
    if (cargo?.[1] && cargo[2]) set(cargo[1], statuses[cargo[2]] ?? 'fail');
    const spec = /^\s*(✔|✖|﹣) (.+?)(?: \(\d+(?:\.\d+)?m?s\))?(?: # SKIP.*)?$/.exec(line);
    if (spec?.[1] && spec[2])
      set(spec[2], spec[1] === '✔' ? 'pass' : spec[1] === '✖' ? 'fail' : 'skip');
  }
  for (const [name, status] of parseTap(output)) set(name, status);
  return found.size > 0 ? found : undefined;
};
