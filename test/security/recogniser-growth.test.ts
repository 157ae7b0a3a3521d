/**
 * Every recogniser reads a log in one pass: for each family, a log in which one failing line
 * (in each shape the family knows, with nothing the recogniser looks for around it) repeats
 * 40,000 times is read by each recogniser directly, in a child killed past a deadline
 * (test/support/deadline.ts). A recogniser that searches the log again for each failing line
 * it meets (issue 61: mocha's titles, cargo's panics, Surefire's summary) makes 40,000 passes
 * over 40,000 lines and is killed; one pass ends in seconds, far inside the 30 s. No assertion on time.
 */
import { describe, expect, it } from 'vitest';
import { callWithin } from '../support/deadline.ts';
import type { Shape } from '../support/recogniser-growth.ts';

const COPIES = 40_000;

const FAMILIES: [string, Shape[]][] = [
  [
    'JAVASCRIPT',
    [
      { unit: ['FAIL a$.test.ts > t'] },
      { head: ['FAIL a.test.js'], unit: ['  ● t$'] },
      { head: ['1 failing'], unit: ['  1) t$'] },
      { unit: ['not ok 1 - t$'] },
      { unit: ['test at a$.js:1:1', '✖ t$ (1ms)'] },
      { unit: ['a$.ts(1,1): error TS2345: x'] },
      { head: ['/src/a.js'], unit: ['  1:1  error  x  rule$'] },
      { head: ['Code style issues found'], unit: ['[warn] a$.js'] },
      { unit: ['Chrome 1.0 (Linux) t$ FAILED'] },
      { unit: ['npm ERR! code E$'] },
    ],
  ],
  [
    'PYTHON',
    [
      { unit: ['____ test_t$ ____'] },
      { unit: ['FAIL: test_t$ (a.B)'] },
      { unit: ['a$.py:1:1: E123 x'] },
      { unit: ['Traceback (most recent call last):', 'ValueError: x$'] },
    ],
  ],
  ['GO', [{ unit: ['--- FAIL: TestT$ (0.00s)'] }, { unit: ['a$.go:1:1: x'] }]],
  ['RUST', [{ unit: ['test t$ ... FAILED'] }, { unit: ['error[E0308]: x$'] }]],
  [
    'JVM',
    [
      { unit: ['[ERROR] a.B.t$ -- Time elapsed: 0 s <<< FAILURE!'] },
      { unit: ['[ERROR] t$(a.B)  Time elapsed: 0 s  <<< FAILURE!'] },
      { unit: ['t$(a.C)  Time elapsed: 0 s  <<< FAILURE!'] },
      {
        unit: ['[ERROR] a.B.t$ -- Time elapsed: 0 s <<< FAILURE!'],
        tail: ['[ERROR] Failures: ', ...Array.from({ length: 2_000 }, (_, i) => `  C.u${i}:1 x`)],
      },
      { head: ['[ERROR] Failures: '], unit: ['  C.u$:1 x'] },
      { unit: ['[ERROR] /a/F$.java:[1,1] x'] },
    ],
  ],
  ['NATIVE', [{ unit: ['a$.c:1:1: error: x'] }, { unit: ['CMake Error at a$.txt:1 (x):'] }]],
  [
    'DOTNET',
    [
      { unit: ['a$.cs(1,1): error CS0001: x [a.csproj]'] },
      { unit: ['  Failed N.C.M$ [1 ms]'] },
      { unit: ['1) Failed : N.C.M$'] },
      { unit: ['[-] t$ 1ms'] },
      { unit: ['At a$.ps1:1 char:1', '+ CategoryInfo : x$'] },
    ],
  ],
  ['OTHER', [{ unit: ['rspec ./a$_spec.rb:1 # t$'] }, { unit: ['ERROR: failed to solve: x$'] }]],
];

describe('each recogniser reads a log in one pass', () => {
  it.each(FAMILIES)(
    '%s',
    async (family, shapes) => {
      const ended = await callWithin(
        'test/support/recogniser-growth.ts',
        'recogniseShapes',
        [family, shapes, COPIES],
        30_000,
      );
      expect(ended.signal, ended.stderr).toBeNull();
      // Each shape is recognised (the log is read, not skipped).
      expect(ended.value as number[], ended.stderr).not.toContain(0);
    },
    60_000,
  );
});
