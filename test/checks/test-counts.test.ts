import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failingTestNames } from '../../checks/failing-tests.ts';
import { testCounts } from '../../checks/test-counts.ts';
import { makeTempDir } from '../support/tmp.ts';

/** The output of a real runner on a small project: one passing test, one failing, one file that cannot load. */
const runOutput = (
  cwd: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): string => {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true', ...env },
    timeout: 120_000,
  });
  return `${result.stdout}${result.stderr}`;
};

const write = (dir: string, files: Record<string, string>): string => {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
};

describe('what a runner says it ran', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  it('node:test', () => {
    const dir = write(path.join(temp.dir, 'node'), {
      'package.json': '{"type":"module"}',
      'test/a.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\ntest('good', () => {});\ntest('bad', () => assert.equal(1, 2));\n",
      'test/broken.test.js': "import './missing.js';\n",
    });
    const output = runOutput(dir, process.execPath, ['--test', 'test/']);
    expect(testCounts(output)).toMatchObject({ passed: 1, failed: 2 });
    expect([...failingTestNames(output)]).toEqual(expect.arrayContaining(['bad']));
  });

  it('vitest, a file that fails to load included', () => {
    const dir = write(path.join(temp.dir, 'vitest'), {
      'a.test.ts':
        "import { it, expect } from 'vitest';\nit('good', () => {});\nit('bad', () => expect(1).toBe(2));\n",
      'broken.test.ts': "import './missing.ts';\n",
      'vitest.config.mjs': 'export default { test: {} };\n',
    });
    const vitest = path.join(process.cwd(), 'node_modules', 'vitest', 'vitest.mjs');
    const output = runOutput(dir, process.execPath, [vitest, 'run', '--root', dir]);
    expect(testCounts(output)).toEqual({ passed: 1, failed: 1, skipped: 0, fileErrors: 1 });
    expect([...failingTestNames(output)]).toEqual(expect.arrayContaining(['broken.test.ts']));
  });

  it('pytest, a collection error included', () => {
    const dir = write(path.join(temp.dir, 'pytest'), {
      'test_a.py': 'def test_good():\n    pass\n\ndef test_bad():\n    assert 1 == 2\n',
      'test_broken.py': 'import missing_module\n',
    });
    const output = runOutput(dir, 'python3', ['-m', 'pytest', '-p', 'no:cacheprovider']);
    // A collection error interrupts the session: nothing ran, one file failed whole.
    expect(testCounts(output)).toEqual({ passed: 0, failed: 0, skipped: 0, fileErrors: 1 });
    expect([...failingTestNames(output)]).toEqual(expect.arrayContaining(['test_broken.py']));
    const ran = runOutput(dir, 'python3', ['-m', 'pytest', '-p', 'no:cacheprovider', 'test_a.py']);
    expect(testCounts(ran)).toEqual({ passed: 1, failed: 1, skipped: 0, fileErrors: 0 });
    expect([...failingTestNames(ran)]).toEqual(['test_a.py::test_bad']);
  });

  it('go test, a package that does not build included', () => {
    const dir = write(path.join(temp.dir, 'go'), {
      'go.mod': 'module example.test/m\n\ngo 1.19\n',
      'a/a_test.go':
        'package a\n\nimport "testing"\n\nfunc TestGood(t *testing.T) {}\n\nfunc TestBad(t *testing.T) { t.Fatal("no") }\n',
      'b/b_test.go': 'package b\n\nimport "testing"\n\nfunc TestX(t *testing.T) { undefined() }\n',
    });
    const output = runOutput(dir, 'go', ['test', './...'], {
      GOFLAGS: '-mod=mod',
      GOPROXY: 'off',
      GOCACHE: path.join(temp.dir, 'gocache'),
      GOPATH: path.join(temp.dir, 'gopath'),
    });
    const counts = testCounts(output);
    expect(counts?.failed).toBeGreaterThanOrEqual(1);
    expect(counts?.fileErrors).toBe(1);
    expect([...failingTestNames(output)].join('\n')).toMatch(
      /example.test\/m\/b \[(build|setup) failed\]/,
    );
  });

  it('says nothing for a command that is not a test runner', () => {
    expect(
      testCounts(execFileSync('echo', ['Checking formatting... all good'], { encoding: 'utf8' })),
    ).toBeUndefined();
  });

  it.each([
    [
      'jest',
      'Test Suites: 1 failed, 1 passed, 2 total\nTests:       1 failed, 4 passed, 5 total\n',
      { passed: 4, failed: 1 },
    ],
    [
      'mocha',
      '  4 passing (8ms)\n  1 failing\n  2 pending\n',
      { passed: 4, failed: 1, skipped: 2 },
    ],
    [
      'cargo',
      'test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\ntest result: ok. 2 passed; 0 failed; 1 ignored\n',
      { passed: 5, failed: 1, skipped: 1 },
    ],
    // A runner that prints its own summary is a second witness: a process ended before it
    // printed one reports no tests run (attack5: unittest and minitest judged by exit code alone).
    [
      'unittest',
      '..F\nRan 3 tests in 0.001s\n\nFAILED (failures=1, skipped=1)\n',
      { passed: 1, failed: 1, skipped: 1 },
    ],
    ['unittest, passing', '...\nRan 3 tests in 0.001s\n\nOK\n', { passed: 3, failed: 0 }],
    [
      'minitest',
      'Finished in 0.001s\n3 runs, 4 assertions, 1 failures, 0 errors, 0 skips\n',
      { passed: 2, failed: 1, skipped: 0 },
    ],
    [
      'RSpec',
      'Finished in 0.01 seconds\n5 examples, 1 failure, 2 pending\n',
      { passed: 2, failed: 1, skipped: 2 },
    ],
  ])('%s summaries', (_runner, output, expected) => {
    expect(testCounts(output)).toMatchObject(expected);
  });
});
