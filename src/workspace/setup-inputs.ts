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

/** Extensions a module reference may leave out (`import './make'`, `require('../lib/gen')`). */
const MODULE_SUFFIXES = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.json', '.sh', '.py'];
const INDEX_FILES = ['/index.js', '/index.mjs', '/index.cjs', '/index.ts', '/__init__.py'];

/** Quoted strings, shell words and Python module paths of a script: what may name another file. */
const referencesIn = (text: string): string[] => {
  const quoted = [...text.matchAll(/(['"`])([^'"`\n]{1,300})\1/g)].map((match) => match[2] ?? '');
  const python = [...text.matchAll(/^\s*(?:from\s+(\.*[\w.]+)\s+import|import\s+([\w.]+))/gm)].map(
    (match) => {
      const module = match[1] ?? match[2] ?? '';
      const dots = /^\.*/.exec(module)?.[0].length ?? 0;
      const rest = module.slice(dots).replaceAll('.', '/');
      return dots === 0 ? rest : `${dots === 1 ? '.' : '../'.repeat(dots - 1)}/${rest}`;
    },
  );
  return [...quoted, ...python, ...wordsOf(text)];
};

/** The most files a setup's scripts are followed through, and the most read of each. */
const MAX_FOLLOWED = 100;
const MAX_SCRIPT_BYTES = 256 * 1024;

/**
 * Which files decide what a setup makes: every manifest, lockfile and package
 * manager config; the patches applied at install; `.gitignore` and anything
 * under `node_modules`; and each file the setup command or an install script
 * of a local package names (`node install.mjs`, `node scripts/postinstall.js`),
 * as git knows them — and, followed from each of those and from `setup.py`,
 * every known file their text names (an import, a `require`, a path in a
 * string, a Python module; relative to the script or to the root). A name
 * that is no file costs nothing; one that is makes it an input: too many
 * inputs set up again, too few would let a fix pass on a setup CI would not
 * make. A setup's result is reused (restored from a snapshot, or made before
 * the fix was known) only when the fix touched none of these.
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
  // What the named scripts (and setup.py, code run by pip) reach, followed through each file once.
  const queue = [...named, ...known.filter((file) => /(^|\/)setup\.py$/.test(file))];
  const followed = new Set<string>();
  while (queue.length > 0 && followed.size < MAX_FOLLOWED) {
    const script = queue.shift() ?? '';
    if (followed.has(script)) continue;
    followed.add(script);
    const text = readTextInside(workspace, path.join(workspace, script));
    if (text === undefined) continue;
    for (const reference of referencesIn(text.slice(0, MAX_SCRIPT_BYTES))) {
      for (const base of [path.posix.dirname(script), '.']) {
        const stem = path.posix.normalize(path.posix.join(base, reference));
        const file = [...MODULE_SUFFIXES, ...INDEX_FILES]
          .map((suffix) => `${stem}${suffix}`)
          .find((candidate) => knownSet.has(candidate));
        if (file && !named.has(file)) {
          named.add(file);
          queue.push(file);
        }
      }
    }
  }
  return (file) => MANIFESTS.test(file) || INSTALL_FOLDERS.test(file) || named.has(file);
};
