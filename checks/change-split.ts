import path from 'node:path';
import picomatch from 'picomatch';
import { DEFAULT_PROTECTED_GLOBS } from './protected-files.ts';
import { diffBlocks } from './diff-blocks.ts';
import { pythonPlugins } from './python-plugins.ts';
import { isReleaseNote } from './release-notes.ts';
import { isBaseTest, isSnapshotFile } from './test-files.ts';

export { diffBlocks };

import type { ChangeKind, SplitChange } from './types.ts';

export type { ChangeKind, SplitChange };

/** Code of the common ecosystems: product source when no harness rule claims it. */
const CODE =
  /\.(py|go|rs|js|jsx|ts|tsx|mjs|cjs|mts|cts|vue|svelte|java|kt|scala|groovy|rb|php|cs|fs|vb|c|h|cc|cpp|cxx|hpp|hh|m|mm|swift|dart|ex|erl|hrl|clj|cljs|lua|pl|pm|r|jl|zig|nim|hs|elm|ml|mli|s|S|sh|bash|zsh)$/;

/** Data a product reads (templates, styles, schemas): source only inside a folder, never at the root. */
const DATA =
  /\.(json|ya?ml|html?|css|scss|sass|less|svg|csv|tsv|sql|graphql|gql|proto|xml|j2|jinja2?|tmpl|tpl|hbs|ejs|mustache|toml|ini|cfg|txt)$/;

/** Data-shaped names a tool reads as its configuration wherever it finds them: never product data. */
const CONFIG_NAME =
  /^(pytest|tox|setup|pyproject|cargo|conftest|nox|mypy|ruff|pylintrc|coverage|jest|vitest|mocha|karma|babel|tsconfig|jsconfig|eslint|prettier|deno|bunfig|requirements|constraints|pipfile|gemfile|go|rust-toolchain|clippy|rustfmt)\b/i;

/**
 * Prose: `.md`, `.rst`, … and the usual files of a repository's root. Never judged: a runner
 * may collect prose as tests (pytest's doctests of `test*.txt`, a configured doctest glob).
 */
const PROSE = /\.(md|markdown|rst|adoc|asciidoc|org)$/i;
const PROSE_NAMES =
  /^(LICEN[CS]E|COPYING|AUTHORS|CONTRIBUTORS|CHANGELOG|CHANGES|HISTORY|NEWS|NOTICE|README)(\.\w+)?$/i;

/** Folders whose files are never product source, at any depth: installed dependencies, caches. */
const NOT_PRODUCT_FOLDERS = new Set([
  'node_modules',
  'site-packages',
  'dist-packages',
  '__pycache__',
]);

/** Top-level folders of vendored dependencies and build output (Go's `vendor/`, Cargo's `target/`). */
const NOT_PRODUCT_ROOTS = new Set(['vendor', 'target', 'build']);

/** Folders of tests and their data, beyond the test-file conventions. */
const TEST_FOLDERS = new Set([
  'test',
  'tests',
  '__tests__',
  'spec',
  'specs',
  'testdata',
  'fixtures',
  '__fixtures__',
  '__mocks__',
  'benches',
  'examples',
  'e2e',
]);

const DOC_FOLDERS = new Set(['docs', 'doc']);

/**
 * Names that are harness whatever their folder: test runners' plugins and
 * start-up files, build scripts, every `*.config.*` / `*.conf.*` spelling of
 * a tool's configuration, and a JS runner's setup and teardown files.
 */
const HARNESS_NAME =
  /^(conftest\.py|setup\.py|noxfile\.py|sitecustomize\.py|usercustomize\.py|build\.rs|Makefile|GNUmakefile|makefile|Rakefile|Justfile|justfile|Taskfile\.\w+|Dockerfile.*|Containerfile.*|.*\.mk|.*\.pth|.*\.config\.\w+|.*\.conf\.\w+)$/;
const JS_SETUP =
  /^(global[-_]?)?(setup|teardown)([-_]?(tests?|files?|env|jest|vitest|mocha|after[-_]?env))?$|[-_.](setup|teardown)$/i;
const JS_FAMILY = /\.(js|jsx|ts|tsx|mjs|cjs|mts|cts)$/;

/** Made on first use, not when the module loads (start-up time for every command). */
let defaultProtected: picomatch.Matcher | undefined;
const isDefaultProtected = (file: string): boolean =>
  (defaultProtected ??= picomatch(DEFAULT_PROTECTED_GLOBS, { dot: true }))(file);

/**
 * How the judging run treats one path (see `ChangeKind`); `named` are the base's harness-named
 * files, `base` reads the path's base version (a file that defines tests there is a test).
 */
export const classifyPath = (
  file: string,
  named: ReadonlySet<string> = new Set(),
  baseText: (file: string) => string | undefined = () => undefined,
): ChangeKind => {
  const segments = file.split('/');
  const base = segments.at(-1) ?? '';
  const folders = segments.slice(0, -1);
  // A release note (a changeset, a news fragment) whatever its folder: no test run reads one.
  if (
    !named.has(file) &&
    !folders.some((folder) => TEST_FOLDERS.has(folder)) &&
    !isDefaultProtected(file) &&
    isReleaseNote(file, (name) => CODE.test(name))
  )
    return 'docs';
  if (segments.some((segment) => segment.startsWith('.') || segment === '')) return 'harness';
  // Installed-package metadata a runner discovers on sys.path (a pytest11 entry point, a .pth).
  if (folders.some((folder) => /\.(dist-info|egg-info|egg-link|data)$/.test(folder)))
    return 'harness';
  if (folders.some((folder) => NOT_PRODUCT_FOLDERS.has(folder))) return 'harness';
  if (folders.length > 0 && NOT_PRODUCT_ROOTS.has(folders[0] ?? '')) return 'harness';
  if (isDefaultProtected(file) || HARNESS_NAME.test(base) || named.has(file)) return 'harness';
  if (JS_FAMILY.test(base) && JS_SETUP.test(base.replace(JS_FAMILY, ''))) return 'harness';
  if (
    isBaseTest(file, CODE.test(base) ? baseText(file) : undefined) ||
    isSnapshotFile(file) ||
    /(^|\/)tests?\.rs$/.test(file) ||
    /^test.*\.(txt|rst|md)$/i.test(base) ||
    folders.some((folder) => TEST_FOLDERS.has(folder))
  )
    return 'test';
  if (PROSE.test(base) || PROSE_NAMES.test(base) || folders.some((f) => DOC_FOLDERS.has(f)))
    return 'docs';
  if (CODE.test(base)) return 'source';
  if (folders.length > 0 && DATA.test(base) && !CONFIG_NAME.test(base)) return 'source';
  return 'harness';
};

/** Runner configurations whose text may name a file the runner then loads (a setup file, a plugin). */
const RUNNER_CONFIG =
  /(^|\/)(package\.json|pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|[^/]*\.config\.\w+|[^/]*\.conf\.\w+|\.mocharc[^/]*)$/;

/** Keys under which a JS runner's configuration names a file it loads (not an entry point of the product). */
const LOADED_KEYS =
  /\b(setupFiles|setupFilesAfterEnv|globalSetup|globalTeardown|preset|testEnvironment|reporters?|resolver|runner|transform|snapshotResolver|testSequencer|watchPlugins|require|import|loader|file|spec|environment|setupFile|node-option|extension)\b['"]?\s*[:=]/g;

/** Sections of an ini or TOML file that configure pytest or tox. */
const RUNNER_SECTION = /^\[(tool[:.]pytest[^\]]*|pytest|testenv[^\]]*|tox[^\]]*|tool\.tox[^\]]*)\]/;

/**
 * Package scripts that run around the tests or the install (`test`, `pretest`, `test:unit`,
 * `postinstall`, `prepare`): what they run is harness, and so is what they run through
 * `npm run X` / `yarn X` / `pnpm X` (followed, each script once).
 */
const HARNESS_SCRIPT = /test|^(pre|post)?install$|^(pre|post)?prepare$|^prepublish$/i;
const RUN_SCRIPT = /\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([\w:.-]+)/g;

/** The scripts that run when these do, through `npm run` and the pre/post hooks. */
const reachedScripts = (scripts: Record<string, unknown>, start: readonly string[]): string[] => {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const name = queue.shift() as string;
    if (seen.has(name) || typeof scripts[name] !== 'string') continue;
    seen.add(name);
    queue.push(`pre${name}`, `post${name}`);
    for (const match of scripts[name].matchAll(RUN_SCRIPT)) if (match[1]) queue.push(match[1]);
  }
  return [...seen];
};

/** Words after which a command names a program file it runs or preloads. */
const RUNS_NEXT = new Set([
  'node',
  'nodejs',
  'python',
  'python3',
  'bash',
  'sh',
  'zsh',
  'ruby',
  'perl',
  'deno',
  'bun',
  'tsx',
  'ts-node',
  'source',
  '.',
  'exec',
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-c',
  '--config',
  '--rootdir',
  '-p',
]);

/**
 * The files a command line runs: its first word and each word after an
 * interpreter or a preload flag (`node scripts/test.js`, `bash ci/run.sh`,
 * `--require ./env.js`) — not the arguments a runner is given (`pytest
 * src/pkg/mod.py` names a module to test, not a harness).
 */
const programsIn = (command: string): string[] =>
  command.split(/(?<!\s)\s*(?:&&|\|\||;|\||\n)\s*/).flatMap((part) => {
    const words = part
      .trim()
      .split(/\s+/)
      .map((word) => word.replace(/^['"]+|(?<!['"])['"]+$/g, ''))
      .filter((word) => !/^\w+=/.test(word));
    return words.filter((_, index) => index === 0 || RUNS_NEXT.has(words[index - 1] ?? ''));
  });

const quotedIn = (text: string): string[] =>
  [...text.matchAll(/(['"`])([^'"`\n]{1,300})\1/g)].map((match) => match[2] ?? '');
const wordsIn = (text: string): string[] =>
  text
    .split(/[\s;&|<>()`$=,[\]{}]+/)
    .map((word) => word.replace(/^['"]+|(?<!['"])['"]+$/g, ''))
    .filter((word) => word.length > 0 && !word.startsWith('-'));

/** What a runner's configuration names as a file to load. */
const loadedBy = (file: string, text: string): string[] => {
  if (/(^|\/)package\.json$/.test(file)) {
    try {
      const manifest = JSON.parse(text) as Record<string, unknown>;
      const scripts = (manifest.scripts ?? {}) as Record<string, unknown>;
      const tests = reachedScripts(
        scripts,
        Object.keys(scripts).filter((name) => HARNESS_SCRIPT.test(name)),
      ).flatMap((name) => programsIn(scripts[name] as string));
      const runners = ['jest', 'mocha', 'ava', 'nyc', 'c8', 'vitest', 'tap'].map((key) =>
        JSON.stringify(manifest[key] ?? null),
      );
      return [...tests, ...runners.flatMap((json) => loadedBy('runner.config.json', json))];
    } catch {
      return [];
    }
  }
  if (/\.(ini|cfg|toml)$/.test(file)) {
    const inSections: string[] = [];
    let inside = false;
    for (const line of text.split('\n')) {
      if (line.startsWith('[')) inside = RUNNER_SECTION.test(line);
      else if (inside) inSections.push(line);
    }
    const body = inSections.join('\n');
    return [...quotedIn(body), ...wordsIn(body)];
  }
  // A JS runner's config, or a .mocharc: the strings that follow a loading key, up to the value's end.
  return [...text.matchAll(LOADED_KEYS)].flatMap((match) => {
    const rest = text.slice((match.index ?? 0) + match[0].length, (match.index ?? 0) + 600);
    const value = /^\s*\[/.test(rest)
      ? rest.slice(0, rest.indexOf(']') + 1)
      : rest.split(/[,\n}]/)[0];
    return [...quotedIn(value ?? ''), ...wordsIn(/\.mocharc/.test(file) ? (value ?? '') : '')];
  });
};

/** Extensions a runner's reference may leave out (`setupFiles: ['./test/setup']`, `-p plugin`). */
const SUFFIXES = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.py'];

/**
 * Files the base's harness names: those the test commands name (`node
 * scripts/test.js`, `python tests/run.py`), those a package's test scripts
 * name, and those the runners' configurations load (a `setupFiles` entry, a
 * `preset`, a plugin by `-p`), and the modules pytest loads as plugins
 * (`pytest_plugins` of a conftest, a `pytest11` entry point:
 * `python-plugins.ts`). They decide how the tests run, so they are
 * harness whatever they are called. Entry points (`main`, a build's `entry`)
 * are not read: they name the product.
 */
export const harnessNamed = (
  baseFiles: readonly string[],
  baseContent: (file: string) => string | undefined,
  commands: readonly string[],
): Set<string> => {
  const known = new Set(baseFiles);
  const named = new Set<string>();
  const resolve = (from: string, word: string): void => {
    const cleaned = word.replace(/^<rootDir>\//, '').replace(/^\.\//, '');
    if (cleaned === '' || cleaned.length > 300 || cleaned.startsWith('/')) return;
    const modulePath = /^[A-Za-z_][\w.]*$/.test(cleaned) ? cleaned.replaceAll('.', '/') : undefined;
    for (const dir of new Set([from, '.'])) {
      const stems = [cleaned, ...(modulePath ? [modulePath] : [])].map((stem) =>
        path.posix.normalize(path.posix.join(dir, stem)),
      );
      for (const stem of stems)
        for (const suffix of SUFFIXES) if (known.has(stem + suffix)) named.add(stem + suffix);
    }
  };
  for (const command of commands) for (const word of programsIn(command)) resolve('.', word);
  for (const file of baseFiles.filter((candidate) => RUNNER_CONFIG.test(candidate))) {
    const text = baseContent(file)?.slice(0, 256 * 1024);
    if (text === undefined) continue;
    for (const word of loadedBy(file, text)) resolve(path.posix.dirname(file), word);
  }
  const seeds = [...named].filter((file) => file.endsWith('.py'));
  for (const plugin of pythonPlugins(baseFiles, baseContent, seeds)) named.add(plugin);
  return named;
};

const ORDER: readonly ChangeKind[] = ['harness', 'test', 'docs', 'source'];

/**
 * Splits the change. A block whose paths are of several kinds is the
 * strictest of them (a rename from a test to a source file is a test). A
 * block `allowed` names (a recipe's lockfile, a file the config unprotects)
 * is judged with the product. A block whose paths cannot be read is harness.
 * `baseText` reads a path's base version: a file that defines tests there is
 * a test, whatever its name (`calc_checks.py` with a `unittest.TestCase`).
 */
export const splitChange = (
  text: string,
  named: ReadonlySet<string>,
  allowed: (file: string) => boolean = () => false,
  baseText: (file: string) => string | undefined = () => undefined,
): SplitChange => {
  const paths: Record<ChangeKind, string[]> = { source: [], test: [], docs: [], harness: [] };
  const judged: string[] = [];
  const unjudged: string[] = [];
  for (const block of diffBlocks(text)) {
    const kinds = block.paths.map((file) =>
      allowed(file) ? 'source' : classifyPath(file, named, baseText),
    );
    const kind = block.paths.length === 0 ? 'harness' : ORDER.find((k) => kinds.includes(k));
    const strictest = kind ?? 'harness';
    paths[strictest].push(...(block.paths.length > 0 ? block.paths : ['(unreadable diff header)']));
    if (strictest === 'source') judged.push(block.text);
    else if (strictest !== 'harness') unjudged.push(block.text);
  }
  return { judged: judged.join(''), unjudged: unjudged.join(''), paths };
};
