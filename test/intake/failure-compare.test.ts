/**
 * Whether a reproduction is the failure CI saw, on real CI logs of public
 * projects (fixtures/ci-logs): the same failure on another run is `same`,
 * another failure of the same job is `different`, and a sandbox that failed
 * on its environment is `different` whatever CI had.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { formatExcerpt, triageLog } from '../../src/intake/actions-log.ts';
import { compareFailures } from '../../src/intake/failure-compare.ts';

const LOGS = path.join(import.meta.dirname, '..', '..', 'fixtures', 'ci-logs');
const log = (name: string): string =>
  gunzipSync(readFileSync(path.join(LOGS, `${name}.log.gz`))).toString('utf8');
/** What the App hands the job: the triage's excerpt of CI's log. */
const excerpt = (name: string): string => formatExcerpt(triageLog(log(name)).excerpt);

describe('the reproduced failure against CI’s', () => {
  it.each([
    ['terraform-quick-checks-run118.fail', 'terraform-quick-checks-run133.fail'],
    ['terraform-quick-checks-run122.fail', 'terraform-quick-checks-run131.fail'],
    ['go-ethereum-travis-566363943', 'go-ethereum-travis-566644156'],
  ])('the same failure on another run is the same: %s vs %s', (ci, again) => {
    const fidelity = compareFailures(excerpt(ci), log(again));
    expect(fidelity.verdict, fidelity.why).toBe('same');
  });

  it.each([
    ['terraform-quick-checks-run118.fail', 'terraform-quick-checks-run122.fail'],
    ['terraform-quick-checks-run122.fail', 'terraform-quick-checks-run118.fail'],
  ])('another failure of the same job is different: %s vs %s', (ci, other) => {
    const fidelity = compareFailures(excerpt(ci), log(other));
    expect(fidelity.verdict, fidelity.why).toBe('different');
  });

  it('quotes the CI line that matched, not its neighbour, when a short line comes first', () => {
    const ci =
      'error: x\nError: Cannot find module lodash from the bundle entry\nTypeError: undefined is not a function at main\n';
    const fidelity = compareFailures(ci, 'TypeError: undefined is not a function at main\n');
    expect(fidelity.why).toBe(
      'the same error as CI: `TypeError: undefined is not a function at main`',
    );
  });

  it('an import error where CI had an assertion is different, and says so', () => {
    const ci = [
      '=================================== FAILURES ===================================',
      '___________________________________ test_add ___________________________________',
      '    def test_add():',
      '>       assert add(2, 2) == 4',
      'E       assert 0 == 4',
      'FAILED tests/test_calc.py::test_add - assert 0 == 4',
    ].join('\n');
    const here = [
      '==================================== ERRORS ====================================',
      '____________________ ERROR collecting tests/test_calc.py ______________________',
      "E   ModuleNotFoundError: No module named 'six'",
      'ERROR tests/test_calc.py',
    ].join('\n');
    const fidelity = compareFailures(ci, here);
    expect(fidelity.verdict).toBe('different');
    expect(fidelity.why).toMatch(/No module named 'six'/);
    expect(compareFailures(ci, `${ci}\n`).verdict).toBe('same');
  });

  it('a missing command or toolchain is different; a log with nothing to compare is unknown', () => {
    const ci = '--- FAIL: TestAdd (0.00s)\n    calc_test.go:9: Add(2, 2) = 0, want 4\nFAIL';
    expect(compareFailures(ci, 'bash: line 1: go: command not found').verdict).toBe('different');
    expect(compareFailures('Run make\nDone.', 'something else entirely').verdict).toBe('unknown');
  });
});
