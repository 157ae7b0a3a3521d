import { localBin, runLocalBin } from './local-bin.ts';
import type { Recipe } from './types.ts';

/** `[warn] src/a.ts` lines of `prettier --check`. */
const unformattedFiles = (output: string): string[] =>
  output
    .split('\n')
    .map((line) => /^\[warn\] (\S.*)$/.exec(line.trimEnd())?.[1])
    .filter(
      (file): file is string =>
        file !== undefined && !/^Code style issues/.test(file) && !file.includes(' '),
    );

export const prettierRecipe: Recipe = {
  name: 'prettier',
  allowsProtected: [],
  applies: ({ command, output, workspace }) =>
    localBin(workspace, 'prettier') !== undefined &&
    (/\bprettier\b[^\n]*--(check|list-different)|\bprettier\b[^\n]*\s-[cl]\b/.test(command) ||
      /Code style issues found|Forgot to run Prettier\?/.test(output)),
  apply: async ({ workspace, output, sandbox, timeoutMs }) => {
    const run = await runLocalBin({
      workspace,
      sandbox,
      timeoutMs,
      name: 'prettier',
      flag: '--write',
      named: unformattedFiles(output),
    });
    return run.exitCode === 0
      ? { ok: true, summary: `formatted ${run.where} with prettier --write` }
      : { ok: false, summary: `prettier --write failed (exit ${run.exitCode ?? 'killed'})` };
  },
};
