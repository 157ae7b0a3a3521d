import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The dependency install a repository needs, decided by its lockfile. */
export const detectSetupCommand = (workspace: string): string | undefined => {
  const has = (name: string): boolean => existsSync(path.join(workspace, name));
  if (has('pnpm-lock.yaml')) return 'pnpm install --frozen-lockfile';
  if (has('yarn.lock')) return 'yarn install --immutable';
  if (has('package-lock.json') || has('npm-shrinkwrap.json')) return 'npm ci';
  if (has('package.json') && hasDependencies(path.join(workspace, 'package.json')))
    return 'npm install';
  return undefined;
};

const hasDependencies = (file: string): boolean => {
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some(
      (key) =>
        typeof manifest[key] === 'object' &&
        manifest[key] !== null &&
        Object.keys(manifest[key]).length > 0,
    );
  } catch {
    return false;
  }
};

/** The `test` script of package.json as a command, when there is one. */
export const detectTestCommand = (workspace: string): string | undefined => {
  try {
    const manifest = JSON.parse(readFileSync(path.join(workspace, 'package.json'), 'utf8')) as {
      scripts?: Record<string, unknown>;
    };
    return typeof manifest.scripts?.test === 'string' ? 'npm test' : undefined;
  } catch {
    return undefined;
  }
};
