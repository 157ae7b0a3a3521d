import type { Check } from './types.ts';
import { closingMissing, readRun, reportMissing } from './run-counts.ts';
import { describeCounts } from './test-counts.ts';

/**
 * The full test command is no worse than on the base: no test (or file, or
 * package) fails that did not before, and no fewer tests pass — a run that
 * drops tests fails, whatever its exit code. Counted from the runner's report
 * where it writes one (see `readRun`).
 */
export const noRegression: Check = (ctx) => {
  const name = 'no-regression';
  if (ctx.split.paths.source.length === 0)
    return {
      name,
      ok: false,
      detail: 'not run: nothing of the change was judged (see failing-command-passes)',
    };
  const after = ctx.testsAfter;
  if (after.timedOut)
    return { name, ok: false, detail: `\`${ctx.testCommand}\` timed out after the change` };
  const base = readRun(ctx.testsBefore);
  const now = readRun(after);
  if (reportMissing(base, now))
    return {
      name,
      ok: false,
      detail: `\`${ctx.testCommand}\` wrote no report after the change, where on the base its runner wrote one: the runner did not prove it ran`,
    };
  if (closingMissing(base, now))
    return {
      name,
      ok: false,
      detail: `\`${ctx.testCommand}\` ended without the closing line its runner printed on the base: the process was ended before the runner could end it, and its report is not the runner's proof`,
    };
  if (now.contradicted)
    return { name, ok: false, detail: `\`${ctx.testCommand}\`: ${now.contradicted}` };
  const countsBefore = base.counts;
  const countsAfter = now.counts;
  if (countsBefore && !countsAfter)
    return {
      name,
      ok: false,
      detail: `\`${ctx.testCommand}\` reports no tests after the change (on the base: ${describeCounts(countsBefore)})`,
    };
  if (countsBefore && countsAfter && countsAfter.passed < countsBefore.passed)
    return {
      name,
      ok: false,
      detail: `fewer tests pass after the change (${describeCounts(countsAfter)}) than on the base (${describeCounts(countsBefore)})`,
    };
  if (countsBefore && countsAfter && countsAfter.fileErrors > countsBefore.fileErrors)
    return {
      name,
      ok: false,
      detail: `more files fail whole after the change (${describeCounts(countsAfter)}) than on the base (${describeCounts(countsBefore)})`,
    };
  if (after.exitCode === 0)
    return {
      name,
      ok: true,
      detail: `\`${ctx.testCommand}\` passes${countsAfter ? ` (${describeCounts(countsAfter)})` : ''}; counted from ${now.proof}`,
    };
  if (now.failing.size === 0) {
    return {
      name,
      ok: false,
      detail: `\`${ctx.testCommand}\` fails after the change and no failing test could be named to compare with the base`,
    };
  }
  const newlyFailing = [...now.failing].filter((test) => !base.failing.has(test));
  return newlyFailing.length === 0
    ? {
        name,
        ok: true,
        detail: `no newly failing test (${now.failing.size} still failing as on the base)`,
      }
    : { name, ok: false, detail: `newly failing: ${newlyFailing.slice(0, 10).join('; ')}` };
};
