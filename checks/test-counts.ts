/**
 * A package's line of go test (`ok  \tpkg\t0.1s`, `FAIL\tpkg (cached)`, `FAIL\tpkg [build failed]`):
 * not TAP's `ok 1 - name`, which node:test prints.
 */
import { pattern } from '../src/util/pattern.ts';
export const GO_PACKAGE_LINE = /^(ok|FAIL)\s+\S+\s+(\(cached\)|[\d.]+s|\[)/m;

/**
 * What a test run says it ran, from the summary lines of the common runners
 * (vitest, jest, mocha, node:test/TAP, pytest, go test, cargo test, unittest,
 * minitest, RSpec). The
 * checks compare these, not only exit codes: a run that exits 0 having run
 * fewer tests, or none, is not a pass. Undefined when no runner's summary is
 * found (the command is not a test runner: a linter, a type checker).
 */
export interface TestCounts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Files or packages that failed as a whole (could not load, collect or build). */
  readonly fileErrors: number;
}

const number = (text: string | undefined): number => (text === undefined ? 0 : Number(text));

const count = (line: string, word: RegExp): number | undefined => {
  const match = pattern()`(\d+) ${word}`.exec(line);
  return match ? Number(match[1]) : undefined;
};

export const testCounts = (
  rawOutput: string,
  /** go test ran with -v: a package's `ok` is not a test (only `--- PASS` lines are). */
  options: { readonly goVerbose?: boolean } = {},
): TestCounts | undefined => {
  // eslint-disable-next-line no-control-regex
  const output = rawOutput.replace(/\x1b\[[0-9;]*m/g, '');
  const lines = output.split('\n');
  const last = (pattern: RegExp): string | undefined =>
    [...lines].reverse().find((line) => pattern.test(line));
  // vitest: " Test Files  1 failed | 2 passed (3)" and "      Tests  1 failed | 9 passed (10)"
  const vitestTests = last(/^\s*Tests +\d+ \w+(?: \| \d+ \w+)* \(\d+\)/);
  if (vitestTests) {
    // A file that fails whole: " FAIL  test/a.test.ts [ test/a.test.ts ]" (a failing test names " > ").
    const broken = new Set(lines.flatMap((line) => /^\s*FAIL\s+(\S+)\s+\[/.exec(line)?.[1] ?? []));
    return {
      passed: count(vitestTests, /passed/) ?? 0,
      failed: count(vitestTests, /failed/) ?? 0,
      skipped: (count(vitestTests, /skipped/) ?? 0) + (count(vitestTests, /todo/) ?? 0),
      fileErrors: broken.size,
    };
  }
  // jest: "Tests:       1 failed, 5 passed, 6 total" and "Test Suites: 1 failed, 2 passed, 3 total"
  const jestTests = last(/^Tests:\s.*\d total\b/);
  if (jestTests) {
    const suites = last(/^Test Suites:\s+/) ?? '';
    const suiteErrors = (output.match(/Test suite failed to run/g) ?? []).length;
    return {
      passed: count(jestTests, /passed/) ?? 0,
      failed: count(jestTests, /failed/) ?? 0,
      skipped: (count(jestTests, /skipped/) ?? 0) + (count(jestTests, /todo/) ?? 0),
      fileErrors: suiteErrors || (count(jestTests, /failed/) ? 0 : (count(suites, /failed/) ?? 0)),
    };
  }
  // pytest: "==== 1 failed, 5 passed, 2 skipped, 1 error in 0.12s ===="
  const pytest = last(/^=+ .*\b(passed|failed|errors?|no tests ran)\b.* in [\d.]+s/);
  if (pytest) {
    return {
      passed: count(pytest, /passed/) ?? 0,
      failed: count(pytest, /failed/) ?? 0,
      skipped: (count(pytest, /skipped/) ?? 0) + (count(pytest, /xfailed/) ?? 0),
      fileErrors: count(pytest, /errors?/) ?? 0,
    };
  }
  // cargo: "test result: FAILED. 3 passed; 1 failed; 0 ignored; ..." (one per test binary)
  const cargo = lines.filter((line) =>
    /^test result: (ok|FAILED)\. \d+ passed; \d+ failed/.test(line),
  );
  if (cargo.length > 0) {
    const sum = (word: RegExp) =>
      cargo.reduce((total, line) => total + (count(line, word) ?? 0), 0);
    return {
      passed: sum(/passed/),
      failed: sum(/failed/),
      skipped: sum(/ignored/),
      fileErrors: (output.match(/^error(\[E\d+\])?: could not compile/gm) ?? []).length,
    };
  }
  // mocha: "  5 passing (12ms)", "  1 failing", "  2 pending"
  const passing = last(/^\s+\d+ passing\b/);
  if (passing) {
    return {
      passed: count(passing, /passing/) ?? 0,
      failed: count(last(/^\s+\d+ failing\b/) ?? '', /failing/) ?? 0,
      skipped: count(last(/^\s+\d+ pending\b/) ?? '', /pending/) ?? 0,
      fileErrors: 0,
    };
  }
  // node:test / TAP summary: "# pass 5", "# fail 1", "# skipped 0", "# todo 0"
  const tapPass = last(/^[#ℹ] pass \d+/);
  if (tapPass) {
    const value = (word: string) =>
      number(pattern()`^[#ℹ] ${word} (\d+)`.exec(last(pattern()`^[#ℹ] ${word} \d+`) ?? '')?.[1]);
    return {
      passed: value('pass'),
      failed: value('fail') + value('cancelled'),
      skipped: value('skipped') + value('todo'),
      fileErrors: 0,
    };
  }
  // go test: "ok  \tpkg\t0.1s", "FAIL\tpkg\t0.1s", "FAIL\tpkg [build failed]", "--- FAIL: TestX", "--- PASS: TestX"
  const goPackages = lines.filter((line) => /^(ok|FAIL|\?)\s+\S+/.test(line));
  if (goPackages.some((line) => GO_PACKAGE_LINE.test(line))) {
    const okPackages = goPackages.filter((line) => /^ok\s/.test(line)).length;
    const broken = goPackages.filter((line) => /\[(build|setup) failed\]/.test(line)).length;
    const failedTests = lines.filter((line) => /^\s*--- FAIL: /.test(line)).length;
    const passedTests = lines.filter((line) => /^\s*--- PASS: /.test(line)).length;
    const failedPackages = goPackages.filter((line) => /^FAIL\s/.test(line)).length - broken;
    return {
      // Without -v go names no passing test: a package that is ok counts as one. With -v a
      // package that printed `ok` and named no test ran none (a TestMain or init that exits 0).
      passed: options.goVerbose ? passedTests : passedTests || okPackages,
      failed: failedTests || failedPackages,
      skipped: lines.filter((line) => /^\s*--- SKIP: /.test(line)).length,
      fileErrors: broken,
    };
  }
  // unittest: "Ran 3 tests in 0.001s", then "OK", "OK (skipped=1)" or "FAILED (failures=1, errors=1)"
  const ran = last(/^Ran \d+ tests? in [\d.]+s$/);
  if (ran) {
    const verdict = last(/^(?:OK|FAILED)(?: \(|$)/) ?? '';
    const field = (name: string): number => number(pattern()`\b${name}=(\d+)`.exec(verdict)?.[1]);
    const failed = field('failures') + field('unexpected successes');
    const errors = field('errors');
    const skipped = field('skipped');
    return {
      passed: Math.max(0, (count(ran, /tests?/) ?? 0) - failed - errors - skipped),
      failed: failed + errors,
      skipped,
      fileErrors: 0,
    };
  }
  // minitest: "3 runs, 4 assertions, 1 failures, 0 errors, 0 skips"
  const minitest = last(/^\d+ runs, \d+ assertions, \d+ failures, \d+ errors, \d+ skips$/);
  if (minitest) {
    const runs = count(minitest, /runs/) ?? 0;
    const failed = (count(minitest, /failures/) ?? 0) + (count(minitest, /errors/) ?? 0);
    const skipped = count(minitest, /skips/) ?? 0;
    return { passed: Math.max(0, runs - failed - skipped), failed, skipped, fileErrors: 0 };
  }
  // RSpec: "5 examples, 1 failure, 2 pending" (and "…, 1 error occurred outside of examples")
  const rspec = last(/^\d+ examples?, \d+ failures?/);
  if (rspec) {
    const examples = count(rspec, /examples?/) ?? 0;
    const failed = count(rspec, /failures?/) ?? 0;
    const skipped = count(rspec, /pending/) ?? 0;
    return {
      passed: Math.max(0, examples - failed - skipped),
      failed,
      skipped,
      fileErrors: count(rspec, /errors? occurred outside of examples/) ?? 0,
    };
  }
  return undefined;
};

export const describeCounts = (counts: TestCounts): string =>
  `${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}${counts.fileErrors ? `, ${counts.fileErrors} file(s) that failed whole` : ''}`;
