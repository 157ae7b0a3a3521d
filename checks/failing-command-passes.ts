import { tailLines } from '../src/util/text.ts';
import type { Check } from './types.ts';

/** The failing command passes in a fresh sandbox, on a clean clone with only the diff applied. */
export const failingCommandPasses: Check = (ctx) => {
  const run = ctx.freshFailing;
  if (run.timedOut)
    return {
      name: 'failing-command-passes',
      ok: false,
      detail: `\`${ctx.failingCommand}\` timed out in a fresh sandbox`,
    };
  return run.exitCode === 0
    ? {
        name: 'failing-command-passes',
        ok: true,
        detail: `\`${ctx.failingCommand}\` passes in a fresh sandbox`,
      }
    : {
        name: 'failing-command-passes',
        ok: false,
        detail: `\`${ctx.failingCommand}\` still fails in a fresh sandbox (exit ${run.exitCode ?? 'killed'}):\n${tailLines(run.output.trimEnd(), 15)}`,
      };
};
