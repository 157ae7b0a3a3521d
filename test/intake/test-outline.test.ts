/**
 * The outline of a test runner's output: what passed (and what a passing
 * test printed) is never the failing part. Lines from real logs of the
 * bench's tuning split where the corpus has them (the project and log are
 * named); `dotnet test`'s as it prints them.
 */
import { describe, expect, it } from 'vitest';
import { triageLog } from '../../src/intake/actions-log.ts';
import { testOutline } from '../../src/intake/outline/index.ts';

const outline = (text: readonly string[]) =>
  testOutline(text.map((line, i) => ({ line: i + 1, text: line })));
const indexes = (set: ReadonlySet<number>): number[] => [...set].sort((a, b) => a - b);

/** A passing class that logged an exception, then one that failed (JWT4B, CiDiff jwt4b_233; the sample's maven). */
const SUREFIRE = [
  '[INFO] Running app.TestJWTValidCheck',
  "com.fasterxml.jackson.core.JsonParseException: Unexpected character ('H' (code 72)): was expecting a colon to separate field name and value",
  '\tat com.fasterxml.jackson.core.JsonParser._constructError(JsonParser.java:1851)',
  "08:25:16.612 | Could not parse header - Expected ':' at 1:8",
  '[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.107 s - in app.TestJWTValidCheck',
  '[INFO] Running com.example.CalculatorTest',
  'computing 1 / 0',
  '[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.034 s <<< FAILURE! -- in com.example.CalculatorTest',
  '[ERROR] com.example.CalculatorTest.divides -- Time elapsed: 0.011 s <<< FAILURE!',
  'org.opentest4j.AssertionFailedError: expected: <2> but was: <3>',
];

describe('testOutline', () => {
  it('Surefire: a class whose summary says no failures passed, with what it printed; a failing one is a span', () => {
    const { passing, failing } = outline(SUREFIRE);
    expect(indexes(passing)).toEqual([0, 1, 2, 3, 4]);
    expect(failing).toEqual([{ from: 5, to: 7 }]);
  });

  it('Surefire: classes that interleave (parallel forks) are not outlined', () => {
    const { passing } = outline([
      'Running a.ATest',
      'Running a.BTest',
      'java.lang.IllegalStateException: boom',
      'Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 sec - in a.ATest',
    ]);
    expect(indexes(passing)).toEqual([]);
  });

  it("dotnet test: a passing test and the output it reports are passing; a failing one isn't", () => {
    const { passing } = outline([
      '  Passed Acme.Tests.CartTests.Empty_cart_costs_nothing [1 ms]',
      '  Standard Output Messages:',
      ' Error handler installed',
      '',
      '  Failed Acme.Tests.CartTests.Total_adds_prices [12 ms]',
      '  Error Message:',
      'Passed!  - Failed:     0, Passed:    10, Skipped:     0, Total:    10, Duration: 1 s - Acme.Other.Tests.dll (net8.0)',
    ]);
    expect(indexes(passing)).toEqual([0, 1, 2, 6]);
  });

  it('Pester: a heading whose tests all passed passed too (pester/Pester, LogChunks 572257652)', () => {
    const { passing } = outline([
      '  TestDrive scoping',
      '',
      '    Describe file is available in context',
      '      [+] Finds the file 6ms',
      '      [+] Creates It-scoped contents 6ms',
      '    [+] Context file are removed when returning to Describe 4ms',
      '  Write nunit test results',
      '    [+] should write a successful test result 274ms',
      '    [-] Should validate test results against the nunit 2.5 schema 191ms',
      '      Expected no exception to be thrown',
    ]);
    expect(indexes(passing)).toEqual([0, 2, 3, 4, 5, 7]);
  });

  it('pytest -v: passed, skipped and xfailed tests are passing; failed and errored ones are not (nvbn/thefuck, LogChunks 540933341)', () => {
    const { passing } = outline([
      'tests/test_logs.py::test_debug[True-DEBUG: test\\n] PASSED                [  1%]',
      'tests/test_readme.py::test_readme FAILED                                 [  2%]',
      'tests/rules/test_brew_cask_dependency.py::test_get_new_command[brew install sshfs-brew cask install osxfuse && brew install sshfs] PASSED [ 15%]',
      'tests/rules/test_brew_install.py::test_match SKIPPED                     [ 15%]',
      'tests/rules/test_nixos_cmd_not_found.py::test_get_new_command[command0-nix-env -iA nixos.vim] ERROR [ 72%]',
      // As xdist, `-rA`'s summary and pytest 7's skip reason print them.
      '[gw1] [ 50%] PASSED tests/test_cart.py::test_total',
      '[gw0] [ 75%] FAILED tests/test_cart.py::test_empty',
      'PASSED tests/test_cart.py::test_total',
      'tests/test_cart.py::test_unicode SKIPPED (needs icu)                     [ 80%]',
      'tests/test_cart.py::test_legacy XFAIL                                    [ 90%]',
      'FAILED tests/test_cart.py::test_empty - assert 0 == 1',
    ]);
    expect(indexes(passing)).toEqual([0, 2, 3, 5, 7, 8, 9]);
  });

  it("pytest's progress: a file whose tests all passed or were skipped is passing, one with F or E is not (scikit-learn, LogChunks 562431016)", () => {
    const { passing } = outline([
      'cluster/tests/test_k_means.py ...........s.............................. [  1%]',
      '........................................................................ [  2%]',
      'svm/classes.py ssssss                                                    [ 42%]',
      'svm/tests/test_sparse.py .F.............................                 [ 43%]',
      'utils/tests/test_show_versions.py .E.                                    [ 98%]',
      '........................................................................',
    ]);
    expect(indexes(passing)).toEqual([0, 1, 2]);
  });

  it("pytest's PASSES section (what passing tests printed, with -rA) and unittest's ok lines are passing", () => {
    const { passing } = outline([
      '==================================== PASSES ====================================',
      '_________________________________ test_total __________________________________',
      '----------------------------- Captured stdout call -----------------------------',
      'Traceback (most recent call last): logged and handled',
      '=========================== short test summary info ============================',
      'test_total (shop.tests.CartTests.test_total) ... ok',
      "test_unicode (shop.tests.CartTests.test_unicode) ... skipped 'needs icu'",
      'test_empty (shop.tests.CartTests.test_empty) ... FAIL',
    ]);
    expect(indexes(passing)).toEqual([0, 1, 2, 3, 5, 6]);
  });

  it('the excerpt of a long pytest -v run is its failures, not the tests that passed', () => {
    const passed = Array.from(
      { length: 300 },
      (_, i) => `tests/test_bulk.py::test_case[${i}] PASSED`.padEnd(73) + ' [ 50%]',
    );
    const log = [
      '##[group]Run pytest -v',
      'pytest -v',
      '##[endgroup]',
      '============================= test session starts ==============================',
      'collecting ... collected 302 items',
      '',
      ...passed,
      'tests/test_parse.py::test_parse_float FAILED                             [ 99%]',
      'tests/test_parse.py::test_parse_int PASSED                               [100%]',
      '',
      '=================================== FAILURES ===================================',
      '_______________________________ test_parse_float _______________________________',
      '',
      '    def test_parse_float():',
      '>       assert parse("1.5") == 1.5',
      'E       AssertionError: assert 1 == 1.5',
      '',
      'tests/test_parse.py:12: AssertionError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_parse.py::test_parse_float - AssertionError: assert 1 == 1.5',
      '========================= 1 failed, 301 passed in 2.10s =========================',
      '##[error]Process completed with exit code 1.',
    ];
    const text = triageLog(log.join('\n')).excerpt.map((l) => l.text);
    expect(text.filter((t) => / PASSED\s/.test(t))).toEqual([]);
    expect(text).toContain('E       AssertionError: assert 1 == 1.5');
    expect(text.some((t) => t.startsWith('tests/test_parse.py::test_parse_float FAILED'))).toBe(
      true,
    );
  });

  it('a log without runner markers has no outline', () => {
    expect(outline(['make: *** [all] Error 1', '  at x (y.js:1:2)'])).toEqual({
      passing: new Set(),
      failing: [],
    });
  });

  it('the excerpt leaves out the exception a passing class logged, not the failing one', () => {
    const triage = triageLog(SUREFIRE.join('\n'));
    const text = triage.excerpt.map((l) => l.text);
    expect(text).toContain('org.opentest4j.AssertionFailedError: expected: <2> but was: <3>');
    expect(text.some((t) => t.includes('JsonParseException'))).toBe(false);
  });
});
