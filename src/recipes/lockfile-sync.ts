import type { Recipe } from './types.ts';

const OUT_OF_SYNC =
  /`npm ci` can only install packages when your package\.json and (?:package-lock\.json|npm-shrinkwrap\.json)(?: or npm-shrinkwrap\.json)? are in sync|Missing: \S+ from lock file|Invalid: lock file's \S+ does not satisfy/;

/** A package-lock.json out of sync with package.json: regenerate the lock only, without running scripts. */
export const lockfileSyncRecipe: Recipe = {
  name: 'lockfile-sync',
  allowsProtected: ['package-lock.json', 'npm-shrinkwrap.json'],
  applies: ({ output }) => OUT_OF_SYNC.test(output),
  apply: async ({ workspace, sandbox, timeoutMs }) => {
    const result = await sandbox.run({
      command: 'npm install --package-lock-only --ignore-scripts --no-audit --no-fund',
      cwd: workspace,
      network: 'setup',
      timeoutMs,
    });
    return result.exitCode === 0
      ? {
          ok: true,
          summary:
            'regenerated package-lock.json from package.json (npm install --package-lock-only)',
        }
      : {
          ok: false,
          summary: `npm install --package-lock-only failed (exit ${result.exitCode ?? 'killed'})`,
        };
  },
};
