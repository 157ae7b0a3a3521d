import { tailLines } from '../src/util/text.ts';
import { readRun } from './run-counts.ts';
import { describeCounts } from './test-counts.ts';
import type { Check } from './types.ts';

/** The first added lines of a file, quoted for a diagnosis. */
const quoted = (lines: readonly string[]): string =>
  lines.length === 0
    ? ''
    : `: ${lines
        .slice(0, 3)
        .map((line) => JSON.stringify(line.slice(0, 120)))
        .join(', ')}${lines.length > 3 ? ', …' : ''}`;

/**
 * The change leaves the harness as the base has it: no file a runner, build
 * tool or package manager reads (a config of any spelling or place, a
 * conftest or plugin, a setup file, a file the test command or a runner's
 * config names, anything that is not product source, tests or prose by a
 * positive rule). The verdict is the base's harness judging the product
 * change; a change to that harness is the reviewer's, not the checks'.
 */
export const baseHarness: Check = (ctx) => {
  const harness = ctx.split.paths.harness;
  if (harness.length === 0)
    return {
      name: 'base-harness',
      ok: true,
      detail: `judged with the base's tests and harness: ${ctx.split.paths.source.length} product file(s) applied; ${ctx.split.paths.test.length} test file(s) run after the verdict, ${ctx.split.paths.docs.length} prose file(s) not run`,
    };
  const described = harness.slice(0, 8).map((file) => {
    const changed = ctx.diff.files.find((entry) => entry.path === file || entry.oldPath === file);
    return `${file}${changed?.binary ? ' (binary)' : quoted(changed?.added ?? [])}`;
  });
  const more = harness.length > 8 ? `; and ${harness.length - 8} more` : '';
  return {
    name: 'base-harness',
    ok: false,
    detail: `the change touches what decides how the tests run (not product source, tests or prose): ${described.join('; ')}${more}`,
  };
};

/**
 * No new product module takes the import name of one the runner, the
 * standard library or an installed package provides (a root `pytest.py`
 * that prints a pass, a `json.py` the suite would import instead).
 */
export const noShadowing: Check = (ctx) =>
  typeof ctx.shadowing === 'string'
    ? { name: 'no-shadowing', ok: false, detail: ctx.shadowing }
    : ctx.shadowing.length === 0
      ? { name: 'no-shadowing', ok: true, detail: 'no new module shadows an installed one' }
      : {
          name: 'no-shadowing',
          ok: false,
          detail: `new top-level modules that take the name of one the standard library, the runner or an installed package provides, or that nothing of the product imports: ${ctx.shadowing.join(', ')}`,
        };

/**
 * The tests the change adds or edits pass on the fix. They take no part in
 * the verdict (the base's tests judge it); they go into the PR, run once
 * after the verdict with the whole change applied, and must pass.
 */
export const changeTestsPass: Check = (ctx) => {
  const name = 'change-tests-pass';
  const run = ctx.changeTests;
  const tests = ctx.split.paths.test;
  if (tests.length === 0) return { name, ok: true, detail: 'the change adds or edits no test' };
  if (!run)
    return {
      name,
      ok: false,
      detail: `not run (${ctx.split.paths.harness.length > 0 ? 'the change touches the harness' : 'nothing of the change was judged'}): ${tests.slice(0, 5).join(', ')}`,
    };
  const counts = readRun(run).counts;
  const shown = counts ? ` (${describeCounts(counts)})` : '';
  if (run.exitCode === 0 && !run.timedOut)
    return {
      name,
      ok: true,
      detail: `with the change's own tests, \`${ctx.testCommand}\` passes${shown}: ${[...ctx.split.paths.test].join(', ')}`,
    };
  return {
    name,
    ok: false,
    detail: `with the change's own tests, \`${ctx.testCommand}\` fails${shown}${run.timedOut ? ' (timed out)' : ''}:\n${tailLines(run.output.trimEnd(), 15)}`,
  };
};

/**
 * The base's tests and harness were the ones that ran: the judging runs
 * changed none of their tracked files (the code under test could rewrite a
 * test file before its runner reads it), neither their content nor what they
 * are — each is the very file lstat saw before the runs (device, inode, mode,
 * owner, size, times), in the very folders: a file renamed over one and its
 * original bytes put back is another file. Where regreen runs as root they
 * were unwritable to the sandbox during the runs, and the top folder's
 * entries holding them were mount points it could not rename; elsewhere they
 * are compared after.
 */
export const baseTestsIntact: Check = (ctx) => {
  const { changed, replaced, enforced } = ctx.heldStill;
  const how = enforced
    ? 'held unwritable and in place during the runs, their content and identity compared after'
    : 'compared after the runs, content and identity (regreen is not root: they could not be made unwritable)';
  if (changed.length === 0 && replaced.length === 0)
    return {
      name: 'base-tests-intact',
      ok: true,
      detail: `the base's tests and harness were ${how}`,
    };
  const parts = [
    ...(changed.length > 0
      ? [`changed the base's tests or harness: ${changed.slice(0, 10).join(', ')}`]
      : []),
    ...(replaced.length > 0
      ? [
          `replaced or altered the base's tests or harness, whatever their content now: ${replaced.slice(0, 6).join('; ')}${replaced.length > 6 ? `; and ${replaced.length - 6} more` : ''}`,
        ]
      : []),
  ];
  return {
    name: 'base-tests-intact',
    ok: false,
    detail: `the judging runs ${parts.join('; and ')} (${how})`,
  };
};
