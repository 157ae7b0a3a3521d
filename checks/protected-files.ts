import picomatch from 'picomatch';
import type { Check } from './types.ts';
import { isBaseTest } from './test-files.ts';

/**
 * Files that decide what is built and what the tests are: CI, lockfiles and
 * manifests, and every test runner's or build's configuration. A change to
 * one can make a failing suite pass without fixing anything (a `conftest.py`
 * with `collect_ignore`, an `.npmrc` with `script-shell=/bin/true`).
 */
export const DEFAULT_PROTECTED_GLOBS = [
  '.github/**',
  '.regreen/**',
  '.gitattributes',
  '**/.gitattributes',
  '.gitmodules',
  // lockfiles
  '**/package-lock.json',
  '**/npm-shrinkwrap.json',
  '**/pnpm-lock.yaml',
  '**/yarn.lock',
  '**/bun.lock',
  '**/bun.lockb',
  '**/Cargo.lock',
  '**/go.sum',
  '**/poetry.lock',
  '**/uv.lock',
  '**/Pipfile.lock',
  '**/Gemfile.lock',
  '**/composer.lock',
  // manifests and package manager configuration
  '**/package.json',
  '**/.npmrc',
  '**/.yarnrc',
  '**/.yarnrc.yml',
  '**/pnpm-workspace.yaml',
  '**/Cargo.toml',
  '**/go.mod',
  '**/pyproject.toml',
  '**/requirements*.txt',
  '**/Pipfile',
  '**/setup.py',
  '**/setup.cfg',
  '**/Gemfile',
  '**/composer.json',
  '**/pom.xml',
  '**/build.gradle',
  '**/build.gradle.kts',
  '**/settings.gradle',
  '**/settings.gradle.kts',
  // what decides which tests run and how
  '**/vitest.config.*',
  '**/vitest.workspace.*',
  '**/jest.config.*',
  '**/.mocharc*',
  '**/karma.conf.*',
  '**/playwright.config.*',
  '**/cypress.config.*',
  '**/pytest.ini',
  '**/tox.ini',
  '**/noxfile.py',
  '**/conftest.py',
  '**/Makefile',
  '**/GNUmakefile',
  '**/tsconfig*.json',
  '**/babel.config.*',
  '**/.babelrc*',
];

/**
 * Whether a change to `file` needs a person: the config's globs, else the defaults and existing
 * test files, unless the config unprotects them (never `.github/**`). `relaxed` hears of a file
 * that only the config's `unprotected` let through.
 */
export const protectionOf = (options: {
  readonly protectedGlobs: readonly string[];
  readonly unprotectedGlobs: readonly string[];
  /** Whether the file is one of the base's (an existing test file is protected). */
  readonly existing: (file: string) => boolean;
  /** The base version of a file (one that defines tests is a test, whatever its name). */
  readonly baseContent?: (file: string) => string | undefined;
}): ((file: string, relaxed?: (file: string) => void) => boolean) => {
  const isDefault = picomatch(DEFAULT_PROTECTED_GLOBS, { dot: true });
  const isConfigured = picomatch([...options.protectedGlobs], { dot: true });
  const isRelaxed = picomatch([...options.unprotectedGlobs], { dot: true });
  return (file, relaxed) => {
    if (isConfigured(file)) return true;
    const existingTest = options.existing(file) && isBaseTest(file, options.baseContent?.(file));
    if (isDefault(file) || existingTest) {
      if (options.unprotectedGlobs.length > 0 && isRelaxed(file) && !file.startsWith('.github/')) {
        relaxed?.(file);
        return false;
      }
      return true;
    }
    return false;
  };
};

/** No protected file touched: existing test files, CI config, lockfiles, manifests, test configuration, the config's globs. */
export const protectedFiles: Check = (ctx) => {
  const existing = new Set(ctx.baseFiles);
  const isProtected = protectionOf({
    protectedGlobs: ctx.protectedGlobs,
    unprotectedGlobs: ctx.unprotectedGlobs,
    existing: (file) => existing.has(file),
    baseContent: ctx.baseContent,
  });
  const touched = ctx.diff.files.flatMap((file) => [
    file.path,
    ...(file.oldPath && file.oldPath !== file.path ? [file.oldPath] : []),
  ]);
  const relaxed: string[] = [];
  const violations = touched.filter((file) => {
    const recipe = ctx.allowedProtected.find((change) => change.path === file);
    // A recipe's change is allowed exactly as the recipe left it, not whatever came after.
    if (recipe && ctx.newContent(file) === recipe.content) return false;
    return isProtected(file, (file) => relaxed.push(file));
  });
  const relaxedNote =
    relaxed.length > 0
      ? ` (allowed because .github/regreen.yml unprotects them: ${[...new Set(relaxed)].join(', ')})`
      : '';
  return violations.length === 0
    ? { name: 'protected-files', ok: true, detail: `no protected file touched${relaxedNote}` }
    : {
        name: 'protected-files',
        ok: false,
        detail: `protected files touched: ${[...new Set(violations)].join(', ')}${relaxedNote}${
          violations.some((file) => existing.has(file) && isBaseTest(file, ctx.baseContent(file)))
            ? ' (the existing tests judge the fix: a regression test goes in a new test file)'
            : ''
        }`,
      };
};
