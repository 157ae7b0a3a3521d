import { tailLines } from '../src/util/text.ts';
import { closingMissing, readRun, reportMissing } from './run-counts.ts';
import { describeCounts } from './test-counts.ts';
import { testOutcomes } from './test-outcomes.ts';
import type { Check, CheckContext } from './types.ts';

/** The last line a run printed that says something: what a one-line summary shows. */
const lastLine = (output: string): string =>
  output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .at(-1)
    ?.slice(0, 200) ?? '(no output)';

/** Why a change with no product source was not judged, with where each of its files went. */
export const nothingJudged = (ctx: CheckContext): string => {
  const { test, docs, harness } = ctx.split.paths;
  const parts = [
    test.length > 0 ? `tests: ${test.slice(0, 5).join(', ')}` : '',
    docs.length > 0 ? `prose: ${docs.slice(0, 5).join(', ')}` : '',
    harness.length > 0 ? `harness: ${harness.slice(0, 5).join(', ')}` : '',
  ].filter(Boolean);
  return `nothing of the change was judged: it has no product source (${parts.join('; ')}). Tests and prose take no part in the verdict and harness is refused; a product file the classifier does not know can be declared with \`product:\` in .github/regreen.yml`;
};

/**
 * The failing command passes in a fresh sandbox, on a clean clone of the base
 * with only the change's product source applied (the base's tests and harness
 * judge it) — and, where it is a test runner, the tests that ran on the base
 * ran again and passed: none of the originally failing tests still fails,
 * none fails now, and no fewer tests pass than ran before. An exit code of 0
 * alone is not a pass, and a runner that wrote its report on the base must
 * write it again.
 */
export const failingCommandPasses: Check = (ctx) => {
  const name = 'failing-command-passes';
  if (ctx.split.paths.source.length === 0) return { name, ok: false, detail: nothingJudged(ctx) };
  const run = ctx.freshFailing;
  const where = ctx.unsandboxed
    ? 'in a fresh clone on the host (no sandbox)'
    : 'in a fresh sandbox';
  if (run.timedOut)
    return { name, ok: false, detail: `\`${ctx.failingCommand}\` timed out ${where}` };
  if (run.exitCode !== 0)
    return {
      name,
      ok: false,
      detail: `\`${ctx.failingCommand}\` still fails ${where} (exit ${run.exitCode ?? 'killed'}): ${lastLine(run.output)}\n${tailLines(run.output.trimEnd(), 15)}`,
    };
  const base = readRun(ctx.failingBefore);
  const fresh = readRun(run);
  if (reportMissing(base, fresh))
    return {
      name,
      ok: false,
      detail: `\`${ctx.failingCommand}\` exits 0 but its runner wrote no report, where on the base it wrote one: the runner did not prove it ran`,
    };
  if (closingMissing(base, fresh))
    return {
      name,
      ok: false,
      detail: `\`${ctx.failingCommand}\` ended without the closing line its runner printed on the base: the process was ended before the runner could end it, and its report is not the runner's proof`,
    };
  if (fresh.contradicted)
    return { name, ok: false, detail: `\`${ctx.failingCommand}\`: ${fresh.contradicted}` };
  const before = base.counts;
  const after = fresh.counts;
  const stillFailing = [...base.failing].filter((test) => fresh.failing.has(test));
  if (stillFailing.length > 0)
    return { name, ok: false, detail: `still failing: ${stillFailing.slice(0, 10).join('; ')}` };
  // By name where the runner names its tests: each test that failed on the base now passes
  // (not skipped, not gone, not made up for by another test's pass).
  const outcomesBefore = testOutcomes(ctx.failingBefore);
  const outcomesAfter = testOutcomes(run);
  if (outcomesBefore && outcomesAfter) {
    const notPassing = [...outcomesBefore]
      .filter(([, status]) => status === 'fail')
      .filter(([test]) => outcomesAfter.get(test) !== 'pass')
      .map(([test]) => `${test} (${outcomesAfter.get(test) ?? 'did not run'})`);
    if (notPassing.length > 0)
      return {
        name,
        ok: false,
        detail: `the tests that failed on the base do not pass: ${notPassing.slice(0, 10).join('; ')} (named by ${fresh.proof})`,
      };
  }
  if (before && !after)
    return {
      name,
      ok: false,
      detail: `\`${ctx.failingCommand}\` exits 0 but reports no tests run (on the base: ${describeCounts(before)})`,
    };
  if (before && after) {
    if (after.failed > 0 || after.fileErrors > 0)
      return {
        name,
        ok: false,
        detail: `\`${ctx.failingCommand}\` exits 0 but reports ${describeCounts(after)}`,
      };
    const ranBefore = before.passed + before.failed;
    if (after.passed < ranBefore)
      return {
        name,
        ok: false,
        detail: `fewer tests passed (${after.passed}) than ran on the base (${ranBefore}: ${describeCounts(before)}): tests were dropped or skipped (counted from ${fresh.proof})`,
      };
    return {
      name,
      ok: true,
      detail: `\`${ctx.failingCommand}\` passes ${where} with the base's tests and harness (${describeCounts(after)}; on the base ${describeCounts(before)}; counted from ${fresh.proof})`,
    };
  }
  return {
    name,
    ok: true,
    detail: `\`${ctx.failingCommand}\` passes ${where} with the base's tests and harness (proof: ${fresh.proof})`,
  };
};
