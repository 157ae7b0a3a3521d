import { stripAnsi } from '../src/util/text.ts';
import type { Check } from './types.ts';
import { failingTestNames } from './failing-tests.ts';
import { describeCounts, testCounts } from './test-counts.ts';

/**
 * The full test command is no worse than on the base: no test (or file, or
 * package) fails that did not before, and no fewer tests pass — a run that
 * drops tests fails, whatever its exit code.
 */
export const noRegression: Check = (ctx) => {
  const name = 'no-regression';
  const after = ctx.testsAfter;
  if (after.timedOut)
    return { name, ok: false, detail: `\`${ctx.testCommand}\` timed out after the change` };
  const countsBefore = testCounts(ctx.testsBefore.output);
  const countsAfter = testCounts(after.output);
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
      detail: `\`${ctx.testCommand}\` passes${countsAfter ? ` (${describeCounts(countsAfter)})` : ''}`,
    };
  const before = failingTestNames(stripAnsi(ctx.testsBefore.output));
  const now = failingTestNames(stripAnsi(after.output));
  if (now.size === 0) {
    return {
      name,
      ok: false,
      detail: `\`${ctx.testCommand}\` fails after the change and no failing test could be named to compare with the base`,
    };
  }
  const newlyFailing = [...now].filter((test) => !before.has(test));
  return newlyFailing.length === 0
    ? { name, ok: true, detail: `no newly failing test (${now.size} still failing as on the base)` }
    : { name, ok: false, detail: `newly failing: ${newlyFailing.slice(0, 10).join('; ')}` };
};
