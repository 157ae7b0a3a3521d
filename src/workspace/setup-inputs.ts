import path from 'node:path';
import { readTextInside } from './confined-fs.ts';

/** Manifests, lockfiles and package manager configs, at any depth. */
const MANIFESTS =
  /(^|\/)(package\.json|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|\.pnpmfile\.c?js|yarn\.lock|\.yarnrc(\.yml)?|\.npmrc|bun\.lockb?|requirements[^/]*\.txt|constraints[^/]*\.txt|setup\.py|setup\.cfg|pyproject\.toml|poetry\.lock|uv\.lock|Pipfile(\.lock)?|go\.mod|go\.sum|Cargo\.toml|Cargo\.lock|Gemfile(\.lock)?|pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|composer\.(json|lock))$/;

/** What patch-package and Yarn apply to installed dependencies, and what git reads to decide what is ignored. */
const INSTALL_FOLDERS = /(^|\/)(patches|\.yarn\/patches)\/|(^|\/)\.gitignore$|^node_modules(\/|$)/;

/** The scripts npm, Yarn and pnpm run while they install a package (the root and each local one). */
const INSTALL_SCRIPTS = [
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
];

/** Words of a shell command that could name a file: split at blanks and operators, quotes dropped. */
const wordsOf = (command: string): string[] =>
  command
    .split(/[\s;&|<>()`$=]+/)
    .map((word) => word.replace(/^['"]+|['"]+$/g, ''))
    .filter((word) => word.length > 0 && !word.startsWith('-'));

const scriptsOf = (workspace: string, manifest: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(
      readTextInside(workspace, path.join(workspace, manifest)) ?? 'null',
    );
    const scripts =
      parsed && typeof parsed === 'object' ? (parsed as { scripts?: unknown }).scripts : undefined;
    if (!scripts || typeof scripts !== 'object') return [];
    return INSTALL_SCRIPTS.map((name) => (scripts as Record<string, unknown>)[name]).filter(
      (script): script is string => typeof script === 'string',
    );
  } catch {
    // An unreadable manifest names nothing more; the manifest itself is an input.
    return [];
  }
};

/**
 * Which files decide what a setup makes: every manifest, lockfile and package
 * manager config; the patches applied at install; `.gitignore` and anything
 * under `node_modules`; and each file the setup command or an install script
 * of a local package names (`node install.mjs`, `node scripts/postinstall.js`),
 * as git knows them. A setup's result is reused (restored from a snapshot, or
 * made before the fix was known) only when the fix touched none of these.
 */
export const setupInputs = (
  workspace: string,
  command: string,
  known: readonly string[],
): ((file: string) => boolean) => {
  const knownSet = new Set(known);
  const named = new Set<string>();
  const nameFrom = (base: string, text: string): void => {
    for (const word of wordsOf(text)) {
      const file = path.posix.normalize(path.posix.join(base, word));
      if (knownSet.has(file)) named.add(file);
    }
  };
  nameFrom('.', command);
  for (const manifest of known.filter((file) => /(^|\/)package\.json$/.test(file)))
    for (const script of scriptsOf(workspace, manifest))
      nameFrom(path.posix.dirname(manifest), script);
  return (file) => MANIFESTS.test(file) || INSTALL_FOLDERS.test(file) || named.has(file);
};
