import { describe, expect, it } from 'vitest';
import type { CheckedRun } from '../../checks/types.ts';
import { runnerNeverRan } from '../../src/job/stages/runner-never-ran.ts';

const run = (output: string, exitCode: number, junit?: string): CheckedRun => ({
  exitCode,
  output,
  durationMs: 1,
  timedOut: false,
  droppedBytes: 0,
  ...(junit !== undefined ? { proof: { junit, goVerbose: false } } : {}),
});

const REPORT_WITH_A_TEST =
  '<testsuites><testsuite tests="1" errors="0"><testcase classname="t" name="test_a"><failure message="x"/></testcase></testsuite></testsuites>';

describe('a failure counts only once its runner ran (issue 57, item 4)', () => {
  it.each([
    [
      'python -m without the module',
      '/work/.venv/bin/python: No module named pytest',
      1,
      /module `pytest`/,
    ],
    [
      'a dotted module',
      "/usr/bin/python3: Error while finding module specification for 'pytest.main' (ModuleNotFoundError: No module named 'pytest')",
      1,
      /module `pytest\.main`/,
    ],
    [
      'npm 10, no such script',
      'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:',
      1,
      /package script `lint`/,
    ],
    ['npm 6, no such script', 'npm ERR! missing script: test', 1, /package script `test`/],
    [
      'yarn 1, no such script',
      'yarn run v1.22.22\nerror Command "test" not found.',
      1,
      /package script `test`/,
    ],
    [
      'yarn 4, no such script',
      'Usage Error: Couldn\'t find a script named "test".',
      1,
      /package script `test`/,
    ],
    ['pytest collected nothing', '\nno tests ran in 0.01s', 5, /found none to run/],
    ['jest found nothing', 'No tests found, exiting with code 1', 1, /found none to run/],
    ['vitest found nothing', 'No test files found, exiting with code 1', 1, /found none to run/],
  ])('%s: the environment, with what is missing', (_, output, exitCode, missing) => {
    const found = runnerNeverRan(run(output, exitCode));
    expect(found?.missing).toMatch(missing);
    expect(found?.fix).toBeTruthy();
  });

  it('a runner whose report names a test ran, whatever it printed', () => {
    const output = 'E   /usr/bin/python3: No module named pytest\n1 failed in 0.1s';
    expect(runnerNeverRan(run(output, 1, REPORT_WITH_A_TEST))).toBeUndefined();
  });

  it('a runner that printed its summary ran, whatever it printed before it', () => {
    const output = 'npm error Missing script: "x"\n# pass 1\n# fail 1\n';
    expect(runnerNeverRan(run(output, 1))).toBeUndefined();
  });

  it('a failure with no such line (a linter, an assertion) is the failure to fix', () => {
    expect(runnerNeverRan(run('src/a.js: no-var: use const', 1))).toBeUndefined();
    expect(runnerNeverRan(run('ModuleNotFoundError: No module named foo', 1))).toBeUndefined();
  });

  it('a pass, or an exit 5 without pytest saying it ran nothing, is not read this way', () => {
    expect(runnerNeverRan(run('/x/python: No module named pytest', 0))).toBeUndefined();
    expect(runnerNeverRan(run('no tests ran in 0.01s', 1))).toBeUndefined();
  });

  it('reads only the last lines of a long output, each cut', () => {
    const noise = 'x'.repeat(1000);
    const output = `/x/python: No module named pytest\n${Array.from({ length: 200 }, () => noise).join('\n')}`;
    expect(runnerNeverRan(run(output, 1))).toBeUndefined();
  });
});
