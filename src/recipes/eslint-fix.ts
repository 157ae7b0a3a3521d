import { localBin, runLocalBin } from './local-bin.ts';
import type { Recipe } from './types.ts';

/** File headers of ESLint's stylish output: an unindented path line followed by `  line:col  error …`. */
const reportedFiles = (output: string): string[] => {
  const lines = output.split('\n');
  return lines.filter(
    (line, index) =>
      /^\/\S/.test(line) && /^\s+\d+:\d+\s+(error|warning)/.test(lines[index + 1] ?? ''),
  );
};

export const eslintFixRecipe: Recipe = {
  name: 'eslint-fix',
  allowsProtected: [],
  applies: ({ command, output, workspace }) =>
    localBin(workspace, 'eslint') !== undefined &&
    (/\beslint\b/.test(command) ||
      /(?<!\d)\d+ problems? \(\d+ errors?, \d+ warnings?\)/.test(output)) &&
    /potentially fixable with the `--fix` option/.test(output),
  apply: async ({ workspace, output, sandbox, timeoutMs }) => {
    const run = await runLocalBin({
      workspace,
      sandbox,
      timeoutMs,
      name: 'eslint',
      flag: '--fix',
      named: reportedFiles(output),
    });
    // eslint exits 1 when problems remain that --fix cannot fix: the re-run decides.
    return run.exitCode === 0 || run.exitCode === 1
      ? { ok: true, summary: `applied eslint --fix to ${run.where}` }
      : { ok: false, summary: `eslint --fix failed (exit ${run.exitCode ?? 'killed'})` };
  },
};
