/**
 * The host parses text strangers control (a CI log, a run's output, a workflow, a
 * kernel cell, a model's patch, a repository's files) in regreen's one event loop:
 * a pattern that backtracks on a crafted line holds the loop, where no time limit
 * fires. Each case feeds the worst case of a pattern that once backtracked
 * super-linearly through the public function that reads it, and checks the
 * result (the suite's timeout is the bound, never an assertion on time; the lint
 * rule `regexp/no-super-linear-backtracking` keeps new patterns linear).
 *
 * The lines are long (200k characters, four of them) because a quadratic pattern
 * takes seconds on 50k: these took minutes each before the fix.
 */
import { describe, expect, it } from 'vitest';
import { recogniseFailures, type LogLine } from '../../src/intake/formats/index.ts';
import { lineSignal } from '../../src/intake/log-signals.ts';
import { testOutline } from '../../src/intake/outline/index.ts';
import { substitute } from '../../src/intake/workflow.ts';
import { importedNames } from '../../src/job/stages/shadowing.ts';
import { markdownHtml } from '../../src/observe/markdown.ts';
import { npmrcFrom } from '../../src/workspace/setup/dependency-caches.ts';
import { patchPaths } from '../../tools/files/apply-patch.ts';
import { rewriteIPython } from '../../tools/kernels/rewrite.ts';

const N = 200_000;
const blanks = ' '.repeat(N);
const word = 'a'.repeat(N);
/** A line break `.` does not cross: `\u2028` survives splitting on `\n` and on `\r`. */
const BREAK = '\u2028';

const log = (...texts: string[]): LogLine[] => texts.map((text, i) => ({ line: i + 1, text }));
const times = (text: string): string[] => Array<string>(4).fill(text);
const recognised = (...texts: string[]): string[] =>
  recogniseFailures(log(...texts)).map((f) => `${f.format}:${f.test ?? f.message ?? ''}`);

describe('reading a log is linear in its lines', () => {
  it.each([
    // A lazy name before trailing blanks or a duration, on a line that does not end so.
    ['vstest', [...times(`Failed a${blanks}x`), '  Failed Ns.C.M [12 ms]'], ['vstest:Ns.C.M']],
    ['nunit', times(`1) Failed : a${blanks}x${BREAK}y`), []],
    ['pester', times(`[-] a${blanks}x${BREAK}y`), []],
    ['vitest', times(`FAIL a.test.ts > a${blanks}x${BREAK}y`), []],
    ['jest', times(`● a${blanks}x${BREAK}y`), []],
    ['mocha', ['2 failing', ...times(`1) a${blanks}x${BREAK}y`)], []],
    ['tap', ['not ok 1 - t', ...times(`  error: a${blanks}x${BREAK}y`)], ['node-test:t']],
    ['node spec', ['test at a.js:1:1', `✖ a${blanks}x${BREAK}y`], []],
    ['eslint', ['/src/a.js', ...times(`  1:1  error  a${blanks}x${BREAK}y`)], []],
    // `\s+(.*)$` and `\s*(.*)$` before a break.
    ['surefire summary', ['[ERROR] Failures: ', ...times(`  A.b:1${blanks}a${BREAK}x`)], []],
    ['javac', times(`[ERROR] A.java:12:${blanks}a${BREAK}x`), []],
    ['kotlinc', times(`e: /a/F.kt:12:5${blanks}a${BREAK}x`), []],
    ['uncaught', times(`Exception in thread "main" a.B:${blanks}a${BREAK}x`), []],
    ['pytest', times(`FAILED a.py::t - ${blanks}a${BREAK}x`), []],
    [
      'python',
      ['Traceback (most recent call last):', ...times(`ValueError:${blanks}a${BREAK}x`)],
      [],
    ],
    ['cmake', times(`CMake Error${': '.repeat(N / 2)}${BREAK}x`), ['cmake:x']],
  ])('%s', (_, texts, expected) => {
    expect(recognised(...texts)).toEqual(expected);
  });

  it('reads a surefire entry of many arrows (once exponential)', () => {
    const arrows = `  A.b:1${'->a'.repeat(5_000)}`;
    expect(recognised('[ERROR] Failures: ', arrows, `${arrows} boom`)).toEqual(['maven:A.b']);
  });

  it('reads a pytest failure’s location and a panic after long words', () => {
    const where = recogniseFailures(
      log('___ test_a ___', ...times(`a.py:1: ${word}${BREAK}x`), 'a.py:2: Error'),
    );
    expect(where[0]).toMatchObject({ format: 'pytest', test: 'test_a', line: 2 });
    const panic = recogniseFailures(
      log('test t ... FAILED', `thread 't' panicked at a.rs:1:2:${blanks}a${BREAK}x`, 'next'),
    );
    expect(panic[0]).toMatchObject({ format: 'cargo-test', test: 't', message: 'next' });
  });

  it('scores lines that look like Maven’s and a type name', () => {
    expect(lineSignal(`[ERROR]${blanks}x`)).toBe(7);
    expect(lineSignal(`[ERROR] ${'a.'.repeat(N / 2)}`)).toBe(7);
    expect(lineSignal(`A${word}`)).toBe(0);
    expect(lineSignal(`${'Error'.repeat(N / 5)}x`)).toBe(0);
    expect(lineSignal('[ERROR] mvn <goals> -rf :x')).toBe(1);
    expect(lineSignal('[ERROR]   FooTest.testAdd:12 expected')).toBe(10);
    expect(lineSignal('ValueError: bad')).toBe(8);
  });

  it('outlines passing tests past long summaries', () => {
    const summary = `Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: a${blanks}a${BREAK}x`;
    const unittest = `test_a (m.C) x${' ... skipped'.repeat(N / 12)}${BREAK}x`;
    const outline = testOutline(
      log('Running a.B', ...times(summary), ...times(unittest), 'test_b (m.C) ... ok'),
    );
    expect([...outline.passing]).toEqual([9]);
  });
});

describe('reading a stranger’s other text is linear', () => {
  it('substitutes a workflow’s expressions', () => {
    // An expression ends at its first `}`, which must be `}}`: neither crafted one is one.
    const unresolved = new Set<string>();
    const crafted = `\${{ a${blanks}x } ${'${{'.repeat(N / 3)} }`;
    const out = substitute(
      `${crafted} \${{ matrix.os }} \${{ github.sha }}`,
      { os: 'l' },
      unresolved,
    );
    expect(out.length).toBe(crafted.length + ' l ${{ github.sha }}'.length);
    expect(out.endsWith(' l ${{ github.sha }}')).toBe(true);
    expect([...unresolved]).toEqual(['github.sha']);
  });

  it('renders markdown with long fences, details and links', () => {
    const html = markdownHtml(
      [
        `${'`'.repeat(N)}${BREAK}x`,
        '',
        `<details>${blanks}x`,
        '',
        `[a](${blanks}x`,
        '',
        '[ok](https://example.com "t")',
      ].join('\n'),
    );
    expect(html.includes('<a href="https://example.com/"')).toBe(true);
    expect(html.includes('<details>')).toBe(false);
  });

  it('rewrites a kernel cell of long magics', () => {
    expect(rewriteIPython(`%%timeit${word}${BREAK}x\npass`)).toContain('__regreen_unsupported');
    expect(rewriteIPython(`x = 1\n%pip${word}${BREAK}x`)).toContain('__regreen_unsupported');
    expect(rewriteIPython('%pip install x')).toBe('__regreen_pip("install x")');
  });

  it('reads a patch’s paths past a long header', () => {
    const crafted = `--- a/x${blanks}y${BREAK}z\n`.repeat(4);
    expect(patchPaths(`${crafted}+++ b/ok.ts  \n---  \n`)).toEqual(['ok.ts', ' ']);
  });

  it('reads imports and an .npmrc of long lines', () => {
    expect([...importedNames([`import${blanks}!`, 'import os, a.b  # c'])]).toEqual(['os', 'a']);
    expect(npmrcFrom([`a${blanks}x\nregistry = https://r.example/`])).toContain(
      'registry=https://r.example/',
    );
  });
});
