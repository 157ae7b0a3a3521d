import picomatch from 'picomatch';
import type { Check } from './types.ts';
import { isTestFile } from './test-files.ts';

export const DEFAULT_PROTECTED_GLOBS = [
  '.github/**',
  '**/package-lock.json',
  '**/npm-shrinkwrap.json',
  '**/pnpm-lock.yaml',
  '**/yarn.lock',
  '**/Cargo.lock',
  '**/go.sum',
  '**/poetry.lock',
  '**/uv.lock',
  '**/Gemfile.lock',
  '**/package.json',
  '**/Cargo.toml',
  '**/go.mod',
  '**/pyproject.toml',
  '**/requirements*.txt',
  '**/Gemfile',
  '.regreen/**',
];

/** No protected file touched: existing test files, CI config, lockfiles, manifests, the config's globs. */
export const protectedFiles: Check = (ctx) => {
  const isProtected = picomatch([...DEFAULT_PROTECTED_GLOBS, ...ctx.protectedGlobs], { dot: true });
  const existing = new Set(ctx.baseFiles);
  const touched = ctx.diff.files.flatMap((file) => [
    file.path,
    ...(file.oldPath && file.oldPath !== file.path ? [file.oldPath] : []),
  ]);
  const violations = touched.filter((file) => {
    if (ctx.allowedProtected.includes(file)) return false;
    if (isProtected(file)) return true;
    return existing.has(file) && isTestFile(file);
  });
  return violations.length === 0
    ? { name: 'protected-files', ok: true, detail: 'no protected file touched' }
    : {
        name: 'protected-files',
        ok: false,
        detail: `protected files touched: ${[...new Set(violations)].join(', ')}`,
      };
};
