import type { Check } from './types.ts';
import { failingTestNames } from './failing-tests.ts';

/** The full test command is no worse than on the base: no test fails that passed before. */
export const noRegression: Check = (ctx) => {
  const name = 'no-regression';
  const after = ctx.testsAfter;
  if (after.exitCode === 0) return { name, ok: true, detail: `\`${ctx.testCommand}\` passes` };
  if (after.timedOut)
    return { name, ok: false, detail: `\`${ctx.testCommand}\` timed out after the change` };
  const before = failingTestNames(ctx.testsBefore.output);
  const now = failingTestNames(after.output);
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
