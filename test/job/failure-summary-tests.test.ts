import { describe, expect, it } from 'vitest';
import { summariseFailure } from '../../src/job/failure-summary.ts';

const summary = (output: string) =>
  summariseFailure({
    command: 'npx vitest run',
    where: 'the sandbox',
    repo: '/src/calc',
    sha: '0123456789abcdef',
    exitCode: 1,
    output,
    tried: [],
    noModel: true,
    workspace: '/w',
  });

describe('the failing tests a diagnosis lists', () => {
  it('are each listed once: a test named alone and again with its file is one test, kept with its file', () => {
    const output = [
      ' ❯ test/calc.test.ts (2 tests | 1 failed) 4ms',
      '   × adds 3ms',
      '   ✓ subtracts 1ms',
      '',
      ' FAIL  test/calc.test.ts > adds',
      'AssertionError: expected 3 to be 4',
      'FAILED tests/test_calc.py::test_add - assert 3 == 4',
      '  ✖ test_add (1ms)',
    ].join('\n');
    expect(summary(output).tests).toEqual([
      'test/calc.test.ts > adds',
      'tests/test_calc.py::test_add',
    ]);
  });

  it('keeps two tests whose names only share an end', () => {
    const output = ['   × adds 3ms', '   × readds 3ms'].join('\n');
    expect(summary(output).tests).toEqual(['adds', 'readds']);
  });
});
