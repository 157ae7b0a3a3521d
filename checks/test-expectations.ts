/**
 * A real fix may correct a test that encoded the old, wrong behaviour: the
 * function changes, and so do the values its inline tests expect. That is
 * never proposed as a fix (the tests it edits are part of its verdict), but a
 * person may take it: `no-weakened-tests` offers it as a draft when each edit
 * only corrects an expectation (`inlineExpectations`), and CI's failing test
 * is another test, one the change leaves alone, that passes with it
 * (`expectationDraft`).
 */
import {
  doctestExpectations,
  type ExpectationChange,
  type ExpectationEdit,
} from './python-doctests.ts';
import { rustTestUnits } from './inline-tests.ts';
import { testOutcomes } from './test-outcomes.ts';
import type { CheckContext } from './types.ts';

const RUST_ASSERTIONS = /\b(?:assert\w*|debug_assert\w*|panic|unreachable|unimplemented|todo)!/g;

/** Lines of `before` not in `after` and lines of `after` not in `before` (a longest common subsequence). */
const lineDiff = (before: readonly string[], after: readonly string[]): [string[], string[]] => {
  const rows = before.length + 1;
  const cols = after.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = before.length - 1; i >= 0; i -= 1)
    for (let j = after.length - 1; j >= 0; j -= 1)
      table[i * cols + j] =
        before[i] === after[j]
          ? (table[(i + 1) * cols + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * cols + j] ?? 0, table[i * cols + j + 1] ?? 0);
  const removed: string[] = [];
  const added: string[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      i += 1;
      j += 1;
    } else if (
      j >= after.length ||
      (i < before.length && (table[(i + 1) * cols + j] ?? 0) >= (table[i * cols + j + 1] ?? 0))
    )
      removed.push(before[(i += 1) - 1] ?? '');
    else added.push(after[(j += 1) - 1] ?? '');
  }
  return [removed, added];
};

/** A Rust file's inline tests by a key that survives an edit: where each is, and its name (or its place among doc blocks). */
const rustUnitsByKey = (text: string): Map<string, { name: string; lines: string[] }> => {
  const units = new Map<string, { name: string; lines: string[] }>();
  const docs = new Map<string, number>();
  for (const unit of rustTestUnits(text)) {
    const where = unit.slice(0, unit.indexOf('\u0000'));
    const lines = unit.slice(unit.indexOf('\u0000') + 1).split('\n');
    const fn = /\bfn\s+(\w+)/.exec(lines.join('\n'))?.[1];
    const doc = (lines[0] ?? '').startsWith('```');
    const index = doc ? (docs.get(where) ?? 0) : 0;
    if (doc) docs.set(where, index + 1);
    const name = doc ? `doc example ${index + 1}` : (fn ?? lines[0] ?? '');
    units.set(`${where}\u0000${name}`, { name, lines });
  }
  return units;
};

/**
 * A change to a Rust file's inline tests that only corrects what they
 * expect: every base test still there under its name and in its modules,
 * its attributes and signature (or a doc block's fence) as they were, no
 * fewer assertions in it; what its body changed is listed old → new.
 */
const rustExpectations = (before: string, after: string): ExpectationChange => {
  const now = rustUnitsByKey(after);
  const edits: ExpectationEdit[] = [];
  for (const [key, unit] of rustUnitsByKey(before)) {
    const next = now.get(key);
    if (next === undefined) return { refused: `removes, renames or moves the test ${unit.name}` };
    if (next.lines.join('\n') === unit.lines.join('\n')) continue;
    const head = (lines: string[]): number =>
      (lines[0] ?? '').startsWith('```')
        ? 1
        : lines.findIndex((line) => /\bfn\s+\w+/.test(line)) + 1;
    const [was, is] = [unit.lines, next.lines];
    if (was.slice(0, head(was)).join('\n') !== is.slice(0, head(is)).join('\n'))
      return { refused: `changes the attributes or signature of the test ${unit.name}` };
    const asserts = (lines: string[]): number =>
      (lines.join('\n').match(RUST_ASSERTIONS) ?? []).length;
    if (asserts(is) < asserts(was))
      return { refused: `takes assertions out of the test ${unit.name}` };
    const [removed, added] = lineDiff(was.slice(head(was)), is.slice(head(is)));
    edits.push({ test: unit.name, old: removed.join('\n'), new: added.join('\n') });
  }
  return { edits };
};

/** What a change does to a product file's inline tests, where it edits them (see `editsInlineTests`). */
export const inlineExpectations = (
  file: string,
  before: string | undefined,
  after: string | undefined,
): ExpectationChange =>
  after === undefined
    ? { refused: 'deletes the file and its tests' }
    : /\.pyi?$/.test(file)
      ? doctestExpectations(before ?? '', after)
      : /\.rs$/.test(file)
        ? rustExpectations(before ?? '', after)
        : { refused: 'edits tests of a language whose inline tests are not read' };

/** One line of text for a list: its lines joined, cut at 160 characters. */
const shown = (text: string): string => {
  const line = text
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ⏎ ');
  return line === '' ? '(nothing)' : line.length > 160 ? `${line.slice(0, 160)}…` : line;
};

/**
 * The draft a change that corrects inline tests' expectations may become, or
 * why it may not: CI's failing tests are named (by the runner) on the base,
 * each passes with the change, and none is a test it edited (its name, or
 * for a doctest its file, in the failing test's name: then the change passed
 * it by rewriting it). Each entry is one line a person reads.
 */
export const expectationDraft = (
  ctx: CheckContext,
  edited: readonly { file: string; edits: readonly ExpectationEdit[] }[],
): { lines: string[] } | { refused: string } => {
  if (ctx.split.paths.source.length === 0) return { refused: 'no product source was judged' };
  const before = testOutcomes(ctx.failingBefore);
  const after = testOutcomes(ctx.freshFailing);
  const failing = [...(before ?? [])]
    .filter(([, status]) => status === 'fail')
    .map(([name]) => name);
  if (!after || failing.length === 0)
    return { refused: 'the runner did not name the tests that failed on the base' };
  const notPassing = failing.filter((name) => after.get(name) !== 'pass');
  if (notPassing.length > 0)
    return {
      refused: `the failing tests do not pass with it: ${notPassing.slice(0, 5).join(', ')}`,
    };
  for (const { file, edits } of edited)
    for (const name of failing) {
      const last = name.split(/::|\.|\s/).filter(Boolean);
      const hit =
        name.includes(file) ||
        edits.some((edit) => last.includes(edit.test) || name.includes(` ${edit.test} `));
      if (hit)
        return {
          refused: `the failing test ${name} is one the change edits (${file}): it passes because it was rewritten`,
        };
    }
  return {
    lines: [
      ...edited.flatMap(({ file, edits }) =>
        edits.map(
          (edit) => `${file}, test ${edit.test}: \`${shown(edit.old)}\` → \`${shown(edit.new)}\``,
        ),
      ),
      ...failing.map((name) => `makes CI's failing test pass: ${name}`),
    ],
  };
};
