/**
 * Issue 57, item 6: a real fix that corrects a test's expectation. A product
 * file's inline tests encode the old, wrong behaviour; the fix changes the
 * function and what they expect, and CI's failing test (another one) passes
 * with it. `no-weakened-tests` refused it outright; now it fails with what a
 * person must confirm (`needsPerson`: each assertion old → new, and the CI
 * test it makes pass), so the change may be a draft. Still refused outright:
 * a change whose only effect on the failing test is editing it, one that
 * deletes or skips tests, and one with no product source judged.
 */
import { describe, expect, it } from 'vitest';
import { parseDiff } from '../../checks/diff.ts';
import { noWeakenedTests } from '../../checks/no-weakened-tests.ts';
import { inlineExpectations } from '../../checks/test-expectations.ts';
import type { CheckContext, CheckedRun } from '../../checks/types.ts';

const run = (exitCode: number, output: string): CheckedRun => ({
  exitCode,
  timedOut: false,
  output,
  droppedBytes: 0,
  durationMs: 1,
});

const RS = [
  'pub fn clamp_percent(x: i32) -> i32 {',
  '    if x > 100 { 99 } else { x }',
  '}',
  '',
  '#[cfg(test)]',
  'mod tests {',
  '    use super::*;',
  '',
  '    #[test]',
  '    fn clamps_high() {',
  '        assert_eq!(clamp_percent(150), 99);',
  '    }',
  '',
  '    #[test]',
  '    fn keeps_low() {',
  '        assert_eq!(clamp_percent(5), 5);',
  '    }',
  '}',
  '',
].join('\n');
const RS_FIXED = RS.replace('{ 99 }', '{ 100 }').replace('(150), 99)', '(150), 100)');

/** cargo test's lines: the unit tests' binary, then the integration test's. */
const cargo = (unit: string, integration: string): string =>
  [
    'running 2 tests',
    `test tests::clamps_high ... ${unit}`,
    'test tests::keeps_low ... ok',
    '',
    'running 1 test',
    `test full_scale_is_one_hundred ... ${integration}`,
  ].join('\n');

const ctx = (
  file: string,
  before: string,
  after: string | undefined,
  runs: { before: string; after: string },
  source = [file],
): CheckContext => {
  const removed = before.split('\n');
  const added = after === undefined ? [] : after.split('\n');
  const text = [
    `diff --git a/${file} b/${file}`,
    ...(after === undefined ? ['deleted file mode 100644'] : []),
    `--- a/${file}`,
    `+++ ${after === undefined ? '/dev/null' : `b/${file}`}`,
    `@@ -1,${removed.length} +${added.length > 0 ? 1 : 0},${added.length} @@`,
    ...removed.map((line) => `-${line}`),
    ...added.map((line) => `+${line}`),
  ].join('\n');
  return {
    diff: parseDiff(text),
    baseFiles: [file],
    baseContent: (path) => (path === file ? before : undefined),
    newContent: (path) => (path === file ? after : undefined),
    failingCommand: 'cargo test',
    testCommand: 'cargo test',
    failingBefore: run(101, runs.before),
    freshFailing: run(0, runs.after),
    testsBefore: run(101, runs.before),
    testsAfter: run(0, runs.after),
    protectedGlobs: [],
    allowedProtected: [],
    unprotectedGlobs: [],
    limits: { maxFiles: 10, maxLines: 400, maxBytes: 256 * 1024 },
    linkIn: () => undefined,
    split: { judged: text, unjudged: '', paths: { source, test: [], docs: [], harness: [] } },
    shadowing: [],
    changeTests: undefined,
    heldStill: { changed: [], replaced: [], enforced: true },
  };
};

const CI_RED = { before: cargo('ok', 'FAILED'), after: cargo('ok', 'ok') };

describe('issue 57 item 6: a fix that corrects an inline test expectation', () => {
  it('is a draft: each assertion old → new and the CI test it makes pass', () => {
    const result = noWeakenedTests(ctx('src/lib.rs', RS, RS_FIXED, CI_RED));
    expect(result.ok).toBe(false);
    expect(result.needsPerson).toEqual([
      'src/lib.rs, test clamps_high: `assert_eq!(clamp_percent(150), 99);` → `assert_eq!(clamp_percent(150), 100);`',
      "makes CI's failing test pass: full_scale_is_one_hundred",
    ]);
  });

  it('a Python doctest whose expected output is corrected is a draft too', () => {
    const before =
      'def half(x):\n    """Half of x.\n\n    >>> half(3)\n    1\n    """\n    return x // 2\n';
    const after = before.replace('    1\n', '    1.5\n').replace('x // 2', 'x / 2');
    expect(inlineExpectations('calc.py', before, after)).toEqual({
      edits: [{ test: 'half', old: '1', new: '1.5' }],
    });
  });

  const refused: Record<
    string,
    { after: string | undefined; runs?: typeof CI_RED; source?: string[] }
  > = {
    // The failing test is the inline one the change rewrote: it passes because it was rewritten.
    'the failing test is the one edited': {
      after: RS_FIXED,
      runs: { before: cargo('FAILED', 'ok'), after: cargo('ok', 'ok') },
    },
    'a test deleted': { after: RS_FIXED.replace(/ {4}#\[test\]\n {4}fn keeps_low[^}]*\}\n/, '') },
    'a test renamed': { after: RS_FIXED.replace('fn clamps_high', 'fn clamps_higher') },
    'a test ignored': {
      after: RS_FIXED.replace(
        '    #[test]\n    fn clamps_high',
        '    #[test]\n    #[ignore]\n    fn clamps_high',
      ),
    },
    'an assertion taken out': {
      after: RS_FIXED.replace(
        '        assert_eq!(clamp_percent(150), 100);\n',
        '        let _ = clamp_percent(150);\n',
      ),
    },
    'the file deleted': { after: undefined },
    'no product source judged': { after: RS_FIXED, source: [] },
    'the runner names no test': { after: RS_FIXED, runs: { before: 'error', after: 'fine' } },
  };
  for (const [name, { after, runs, source }] of Object.entries(refused))
    it(`still refused outright: ${name}`, () => {
      const result = noWeakenedTests(ctx('src/lib.rs', RS, after, runs ?? CI_RED, source));
      expect(result.ok).toBe(false);
      expect(result.needsPerson).toBeUndefined();
    });

  it('a doctest made to run something else, or to expect anything, is refused', () => {
    const before = 'def f():\n    """\n    >>> f()\n    1\n    """\n    return 2\n';
    expect(
      inlineExpectations('m.py', before, before.replace('>>> f()', '>>> f() - 1')),
    ).toHaveProperty('refused');
    expect(
      inlineExpectations('m.py', before, before.replace('    1\n', '    ...\n')),
    ).toHaveProperty('refused');
  });
});
