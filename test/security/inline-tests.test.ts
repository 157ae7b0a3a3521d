/**
 * A test that lives in a product file (a doctest, a Rust `#[cfg(test)]`
 * module) is judged with that file: the judging run applies it whole. A
 * "fix" that rewrites the expected value instead of the code passed every
 * check (an outside attacker's finding); `no-weakened-tests` now refuses a
 * change that rewrites a test a product file holds, and still lets one add
 * tests.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { editsInlineTests, inlineTestLines } from '../../checks/inline-tests.ts';
import { callsScript, commit, fix, write } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';
import { CASE } from './support.ts';

const temp = makeTempDir('regreen-inline-tests-');
afterAll(() => temp.cleanup());

const LIB = [
  '/// Adds.',
  '///',
  '/// ```',
  '/// assert_eq!(calc::add(1, 1), 2);',
  '/// ```',
  'pub fn add(a: i32, b: i32) -> i32 {',
  '    a - b',
  '}',
  '',
  '#[cfg(test)]',
  'mod tests {',
  '    use super::*;',
  '    #[test]',
  '    fn adds() {',
  '        assert_eq!(add(2, 2), 4);',
  '    }',
  '}',
  '',
].join('\n');

const DOCTEST = [
  'def add(a, b):',
  '    """Add two numbers.',
  '',
  '    >>> add(2, 2)',
  '    4',
  '    """',
  '    return a - b',
  '',
].join('\n');

describe('tests a product file holds inline', () => {
  it('Rust: rewriting an assertion of its #[cfg(test)] module or its doctest is editing tests', () => {
    expect(editsInlineTests('src/lib.rs', LIB, LIB.replace('add(2, 2), 4', 'add(2, 2), 0'))).toBe(
      true,
    );
    expect(editsInlineTests('src/lib.rs', LIB, LIB.replace('add(1, 1), 2', 'add(1, 1), 0'))).toBe(
      true,
    );
    expect(editsInlineTests('src/lib.rs', LIB, LIB.replace(/#\[cfg\(test\)\][\s\S]*$/, ''))).toBe(
      true,
    );
  });

  it(`Rust: fixing the code, or adding a test beside the others, is allowed ${CASE}`, () => {
    expect(editsInlineTests('src/lib.rs', LIB, LIB.replace('a - b', 'a + b'))).toBe(false);
    const added = LIB.replace(
      '        assert_eq!(add(2, 2), 4);\n    }\n',
      '        assert_eq!(add(2, 2), 4);\n    }\n    #[test]\n    fn adds_zero() {\n        assert_eq!(add(2, 0), 2);\n    }\n',
    );
    expect(editsInlineTests('src/lib.rs', LIB, added)).toBe(false);
    expect(inlineTestLines('src/lib.rs', LIB)).toContain('assert_eq!(add(2, 2), 4);');
  });

  it('Python: rewriting a doctest’s expected output or its example is editing tests', () => {
    expect(
      editsInlineTests('calc/__init__.py', DOCTEST, DOCTEST.replace('    4\n', '    0\n')),
    ).toBe(true);
    expect(
      editsInlineTests(
        'calc/__init__.py',
        DOCTEST,
        DOCTEST.replace('>>> add(2, 2)', '>>> add(2, -2)'),
      ),
    ).toBe(true);
    expect(editsInlineTests('calc/__init__.py', DOCTEST, DOCTEST.replace('a - b', 'a + b'))).toBe(
      false,
    );
    expect(
      editsInlineTests(
        'calc/__init__.py',
        DOCTEST,
        DOCTEST.replace('    4\n', '    4\n    >>> add(0, 0)\n    0\n'),
      ),
    ).toBe(false);
  });

  it('a doctest whose expected output the "fix" rewrites is never proposed (pytest --doctest-modules, end to end)', async () => {
    const repo = path.join(temp.dir, 'doctest');
    write(repo, {
      'pytest.ini': '[pytest]\naddopts = --doctest-modules\n',
      'calc/__init__.py': DOCTEST,
    });
    commit(repo);
    const script = callsScript(temp.dir, 'doctest', [
      {
        name: 'edit',
        input: { path: '$WORKSPACE/calc/__init__.py', old: '    4\n', new: '    0\n' },
      },
    ]);
    const result = await fix(repo, script, {}, ['--command', 'python3 -m pytest -q']);
    expect(result.outcome.status, result.stderr).not.toBe('proposed');
    const check = result.outcome.checks?.find((c) => c.name === 'no-weakened-tests');
    expect(check?.ok).toBe(false);
  }, 300_000);
});
