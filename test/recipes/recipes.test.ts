import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eslintFixRecipe } from '../../src/recipes/eslint-fix.ts';
import { lockfileSyncRecipe } from '../../src/recipes/lockfile-sync.ts';
import { prettierRecipe } from '../../src/recipes/prettier.ts';
import type { RecipeInput } from '../../src/recipes/types.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { silentLogger } from '../../src/logger.ts';
import { missingImportRecipe, missingNames } from '../../src/recipes/missing-import.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('recipes decide from the failure and the workspace', () => {
  const temp = makeTempDir();
  const withTools = path.join(temp.dir, 'with');
  const without = path.join(temp.dir, 'without');
  mkdirSync(path.join(withTools, 'node_modules', '.bin'), { recursive: true });
  mkdirSync(without, { recursive: true });
  for (const bin of ['prettier', 'eslint'])
    writeFileSync(path.join(withTools, 'node_modules', '.bin', bin), '');
  afterAll(temp.cleanup);

  const input = (workspace: string, command: string, output: string): RecipeInput => ({
    workspace,
    command,
    output,
    sandbox: {} as Sandbox,
    timeoutMs: 1000,
    logger: silentLogger(),
    path: undefined,
  });

  it.each([
    [
      'prettier --check in the command',
      prettierRecipe,
      withTools,
      'npx prettier --check .',
      '',
      true,
    ],
    [
      "prettier's summary in the output",
      prettierRecipe,
      withTools,
      'npm run lint',
      '[warn] Code style issues found in 2 files. Run Prettier with --write to fix.',
      true,
    ],
    ['prettier not installed', prettierRecipe, without, 'prettier --check .', '', false],
    [
      'fixable eslint problems',
      eslintFixRecipe,
      withTools,
      'npx eslint .',
      '✖ 2 problems (2 errors, 0 warnings)\n  2 errors and 0 warnings potentially fixable with the `--fix` option.',
      true,
    ],
    [
      'eslint problems none fixable',
      eslintFixRecipe,
      withTools,
      'npx eslint .',
      '✖ 1 problem (1 error, 0 warnings)',
      false,
    ],
    [
      'npm ci out of sync',
      lockfileSyncRecipe,
      without,
      'npm ci',
      'npm error `npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync.',
      true,
    ],
    [
      'a missing lock entry',
      lockfileSyncRecipe,
      without,
      'npm ci',
      'npm error Missing: left-pad@1.3.0 from lock file',
      true,
    ],
    ['an ordinary test failure', lockfileSyncRecipe, without, 'npm test', 'not ok 1 - adds', false],
  ])('%s', (_label, recipe, workspace, command, output, expected) => {
    expect(recipe.applies(input(workspace, command, output))).toBe(expected);
  });

  it('missing-import reads tsc errors in both output formats', () => {
    const plain = "src/b.ts(3,18): error TS2304: Cannot find name 'Square'.";
    const pretty = "src/b.ts:3:18 - error TS2304: Cannot find name 'Square'.";
    expect(missingNames(plain)).toEqual([
      { file: 'src/b.ts', line: 3, column: 18, name: 'Square' },
    ]);
    expect(missingNames(pretty)).toEqual([
      { file: 'src/b.ts', line: 3, column: 18, name: 'Square' },
    ]);
    expect(missingImportRecipe.applies(input(without, 'tsc', plain))).toBe(true);
    expect(
      missingImportRecipe.applies(
        input(without, 'tsc', "src/b.ts(3,18): error TS2322: Type 'string' is not assignable"),
      ),
    ).toBe(false);
  });

  it('only the lockfile recipe may touch a protected file', () => {
    expect(lockfileSyncRecipe.allowsProtected).toContain('package-lock.json');
    expect(prettierRecipe.allowsProtected).toEqual([]);
    expect(eslintFixRecipe.allowsProtected).toEqual([]);
  });
});
