import type { Check } from './types.ts';
import { editsInlineTests } from './inline-tests.ts';
import { expectationDraft, inlineExpectations } from './test-expectations.ts';
import type { ExpectationEdit } from './python-doctests.ts';
import { holdsTests, isSnapshotFile, isTestFile } from './test-files.ts';

/** Lines that skip, focus or silence tests, in the common frameworks. */
const SKIP_MARKERS = [
  /\.(skip|only|todo|skipIf|runIf|fails)\s*[(`]/,
  /\b(xit|xdescribe|xtest|xcontext|fit|fdescribe|ftest)\s*\(/,
  /@pytest\.mark\.(skip|skipif|xfail)/,
  /\bpytest\.(skip|xfail)\s*\(/,
  /@unittest\.(skip|skipIf|skipUnless|expectedFailure)/,
  /\bself\.skipTest\s*\(/,
  /\bt\.Skip(Now|f)?\(/,
  /#\[ignore\b/,
  /@(Disabled|Ignore)\b/,
  /\bAssumptions?\.assume/,
  /\bpending\b\s*(\(|$)/,
];

const ASSERTION =
  /\b(expect|assert\w*|should|t\.(?:equal|deepEqual|ok|is|throws|Error|Fatal)\w*|require\.\w+|self\.assert\w*)\s*[.(!]/g;

/**
 * The text without its comments, so that a commented-out `// expect(` does
 * not count as an assertion: `//`, `/* *\/` and `#` comments (approximately:
 * a `#` or `//` inside a string cuts the line short, which can only lower
 * the count on both sides alike).
 */
const withoutComments = (file: string, text: string): string => {
  const hash = /\.(py|rb|sh|ex|exs|pl|r|R|toml|ya?ml)$/.test(file);
  const stripped = text.replace(/\/\*[\s\S]*?\*\//g, '');
  return stripped
    .split('\n')
    .map((line) => {
      const slashes = hash ? -1 : line.search(/(^|[^:])\/\//);
      const pound = hash ? line.indexOf('#') : -1;
      const cut = [slashes, pound].filter((at) => at >= 0);
      return cut.length > 0 ? line.slice(0, Math.min(...cut)) : line;
    })
    .join('\n');
};

const countAssertions = (file: string, text: string | undefined): number =>
  text === undefined ? 0 : (withoutComments(file, text).match(ASSERTION) ?? []).length;

const isCommentedOut = (line: string): boolean => /^\s*(\/\/|#|\*|\/\*)/.test(line);

/**
 * No test weakened: no added skip/only/todo, no fewer assertions in a touched
 * test file, no snapshot rewritten, no inline test rewritten — but a change
 * whose only edits to inline tests correct what they expect, while CI's
 * failing test (another one) passes with it, is a person's to take: the
 * check fails with what they must look at (`test-expectations.ts`), and the
 * change may be proposed as a draft.
 */
export const noWeakenedTests: Check = (ctx) => {
  const problems: string[] = [];
  const corrected: { file: string; edits: readonly ExpectationEdit[] }[] = [];
  for (const file of ctx.diff.files) {
    if (isSnapshotFile(file.path) && file.status !== 'added')
      problems.push(`snapshot rewritten: ${file.path}`);
    const before = ctx.baseContent(file.oldPath ?? file.path);
    const after = file.status === 'deleted' ? undefined : ctx.newContent(file.path);
    // A product file is judged with the tests it holds inline: rewriting them is rewriting the spec.
    if (!isTestFile(file.path) && editsInlineTests(file.path, before, after)) {
      const change = inlineExpectations(file.path, before, after);
      if ('edits' in change && ctx.split.paths.source.includes(file.path))
        corrected.push({ file: file.path, edits: change.edits });
      else
        problems.push(
          `${file.path}: the change rewrites a test the file holds inline (a #[cfg(test)] module, a #[test], a doctest's example or expected output)${'refused' in change ? `: it ${change.refused}` : ''}; adding tests is fine, editing them needs a person`,
        );
    }
    if (!holdsTests(file.path, [before, after])) continue;
    const marker = file.added.find(
      (line) => !isCommentedOut(line) && SKIP_MARKERS.some((pattern) => pattern.test(line)),
    );
    if (marker !== undefined) problems.push(`${file.path}: adds "${marker.trim()}"`);
    if (file.status === 'deleted') {
      problems.push(`test file deleted: ${file.path}`);
      continue;
    }
    const counted = {
      before: countAssertions(file.path, before),
      after: countAssertions(file.path, after),
    };
    if (counted.after < counted.before)
      problems.push(
        `${file.path}: ${counted.before - counted.after} fewer assertion(s) (${counted.before} → ${counted.after})`,
      );
  }
  const name = 'no-weakened-tests';
  if (problems.length > 0) return { name, ok: false, detail: problems.join('; ') };
  if (corrected.length === 0) return { name, ok: true, detail: 'no test weakened' };
  const files = corrected.map((entry) => entry.file).join(', ');
  const draft = expectationDraft(ctx, corrected);
  if ('refused' in draft)
    return {
      name,
      ok: false,
      detail: `${files}: the change corrects what inline tests expect, but ${draft.refused}; editing tests needs a person`,
    };
  return {
    name,
    ok: false,
    detail: `${files}: the change corrects what ${corrected.reduce((sum, entry) => sum + entry.edits.length, 0)} inline test(s) expect, and CI's failing test passes with it: a person must confirm the new expectations`,
    needsPerson: draft.lines,
  };
};
