import { describe, expect, it } from 'vitest';
import { parseDiff } from '../../checks/diff.ts';
import { fixTitle } from '../../src/job/pr-title.ts';

const DIFF = `diff --git a/src/range.js b/src/range.js
--- a/src/range.js
+++ b/src/range.js
@@ -1,4 +1,4 @@ export const range = (n) => {
   const out = [];
-  for (let i = 0; i < n - 1; i += 1) out.push(i);
+  for (let i = 0; i < n; i += 1) out.push(i);
   return out;
 };
`;

describe('the pull request title names what was fixed (#59)', () => {
  const diff = parseDiff(DIFF);

  it('names the failing tests the run named', () => {
    expect(
      fixTitle({ command: 'npm test', fixedBy: 'agent', tests: ['range > counts to n'], diff }),
    ).toBe('fix: make `range > counts to n` pass');
    expect(
      fixTitle({ command: 'pytest', fixedBy: 'agent', tests: ['test_a', 'test_b'], diff }),
    ).toBe('fix: make `test_a` and `test_b` pass');
  });

  it('stays one bounded line whatever the names, and says how many it left out', () => {
    const tests = Array.from(
      { length: 12 },
      (_, i) => `tests/test_mod.py::TestLong::test_case_${i}`,
    );
    const title = fixTitle({ command: 'pytest', fixedBy: 'recipe pin', tests, diff });
    expect(title.length).toBeLessThanOrEqual(100);
    expect(title).toMatch(
      /^fix: make `tests\/test_mod\.py::TestLong::test_case_0`.* and \d+ more pass \(recipe pin\)$/,
    );
    const hostile = fixTitle({
      command: 'x',
      fixedBy: 'agent',
      tests: ['a`b\nc'.repeat(50)],
      diff,
    });
    expect(hostile).not.toContain('\n');
    expect(hostile.length).toBeLessThanOrEqual(100);
    expect(hostile.match(/`/g)).toHaveLength(2);
  });

  it('without recognised tests, names the function and the file the change touches', () => {
    expect(fixTitle({ command: 'npm test', fixedBy: 'agent', tests: [], diff })).toBe(
      'fix: `range()` in `src/range.js`',
    );
  });

  it('with neither, names the command as before', () => {
    const empty = { text: '', files: [], changedLines: 0 };
    expect(fixTitle({ command: 'npm test', fixedBy: 'agent', tests: [], diff: empty })).toBe(
      'fix: make `npm test` pass',
    );
  });
});
