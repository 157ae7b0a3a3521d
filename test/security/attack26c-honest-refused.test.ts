/**
 * attack26c, the other side: honest fixes in a file with inline tests that
 * `editsInlineTests` takes for rewriting them (false positives; each keeps
 * every base test byte for byte where it was and only fixes product code).
 *
 * - pyQuoteConstant: the fix adds `QUOTE = '"""'` above the function: the
 *   parser counts the `"""` inside the one-line string as a string opened,
 *   runs it to the docstring's first line, and loses the base's example.
 * - pyReadsDoc: the fix adds a helper that *reads* `f.__doc__`: any `__doc__`
 *   token counts as setting it, and every base example is taken as gone.
 * - rustGlobString: the fix adds `const PATTERN: &str = "src/*.rs";`: the
 *   `/*` in the string opens a block comment for the parser (strings are not
 *   known to `withoutBlockComments`), which swallows the test module.
 *
 * Fixed: quotes and `/*` inside strings are read as strings, and reading
 * `__doc__` is not setting it.
 */
import { describe, expect, it } from 'vitest';
import { editsInlineTests } from '../../checks/inline-tests.ts';

const PY =
  'def add(a, b):\n    """Add two numbers.\n\n    >>> add(2, 2)\n    4\n    """\n    return a - b\n';
const PY_FIXED = PY.replace('a - b', 'a + b');

const RS_FN = 'pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n';
const RS_MODULE =
  '#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(2, 2), 4);\n    }\n}\n';
const RS = `${RS_FN}\n${RS_MODULE}`;
const RS_FIXED = RS.replace('a - b', 'a + b');

const HONEST: Record<string, { file: string; before: string; after: string }> = {
  pyQuoteConstant: {
    file: 'calc/__init__.py',
    before: PY,
    after: `QUOTE = '"""'\n\n\n${PY_FIXED}`,
  },
  pyReadsDoc: {
    file: 'calc/__init__.py',
    before: PY,
    after: `${PY_FIXED}\n\ndef describe(f):\n    return f.__doc__ or ""\n`,
  },
  rustGlobString: {
    file: 'src/lib.rs',
    before: RS,
    after: `pub const PATTERN: &str = "src/*.rs";\n\n${RS_FIXED}`,
  },
};

describe('attack26c: an honest fix beside inline tests is not refused', () => {
  for (const [name, { file, before, after }] of Object.entries(HONEST))
    it(`${name}: is not editing tests`, () => {
      expect(editsInlineTests(file, before, after)).toBe(false);
    });
});
