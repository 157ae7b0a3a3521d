import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { settingsOf, toolchainRootsOf, type Env } from '../../config/env.ts';
import { whichIn } from '../../util/which.ts';
import { isAncestorOrSame, SYSTEM_DIRS, type Mount } from './mounts.ts';

/**
 * Package managers' configuration outside a home folder, where an administrator keeps a
 * registry's token: the system-wide files in `/etc`, and those in the prefix of every toolchain
 * the sandbox mounts — pip's site file (`{sys.prefix}/pip.conf`) of each Python install, venv
 * and conda prefix, conda's `.condarc`, npm's global and built-in npmrc under a Node prefix,
 * RubyGems' `etc/gemrc`, a Maven home's `conf/settings.xml`, a Gradle home's init scripts and
 * properties, sbt's `conf/sbtopts`. In the sandbox a client reads only what regreen writes into
 * the sandbox's home (the operator's registries, without credentials), so each of these reads as
 * empty (a Maven settings file as `<settings/>`, a folder as an empty folder), never "Permission
 * denied". The folder-based ones (pip's and uv's under `$XDG_CONFIG_DIRS`, npm's global file
 * wherever a toolchain's Node keeps it) are closed by the command's environment too
 * (`commandEnv`), whatever their path.
 *
 * The prefixes are found by the toolchains' own layouts, never by walking a tree: each root the
 * sandbox mounts or the operator names is a prefix, and so is each install it keeps where its
 * manager keeps them (pyenv's `versions/*`, asdf's and mise's `installs/<tool>/*`, sdkman's
 * `candidates/<tool>/*`, the runner tool cache's `<tool>/<version>/<arch>`, conda's `envs/*`…),
 * as is the home of each client on the operator's PATH.
 *
 * pip is not also told `PIP_CONFIG_FILE=/dev/null` (with which it loads no file): a command sets
 * its own environment (`unset PIP_CONFIG_FILE`), so that would hide nothing the masks do not, and
 * it would make pip ignore what a repository's own setup configures, as CI's pip would not.
 */

/** What an emptied Maven settings file holds: Maven refuses an empty one. */
export const EMPTY_MAVEN_SETTINGS = '<settings/>\n';

interface ConfigFile {
  readonly path: string;
  /** What it reads as (empty when not given). */
  readonly content?: string;
  /** A folder of files (conda's `condarc.d`, Gradle's `init.d`): an empty folder inside. */
  readonly dir?: true;
  /** Only in the home of the tool that reads it, known by its launcher there. */
  readonly when?: string;
}

const SYSTEM_FILES: readonly ConfigFile[] = [
  { path: '/etc/npmrc' },
  { path: '/etc/pip.conf' },
  { path: '/etc/xdg/pip/pip.conf' },
  { path: '/etc/uv/uv.toml' },
  { path: '/etc/xdg/uv/uv.toml' },
  { path: '/etc/gemrc' },
  { path: '/etc/conda/.condarc' },
  { path: '/etc/conda/condarc' },
  { path: '/etc/conda/condarc.d', dir: true },
  { path: '/etc/sbt/sbtopts' },
  { path: '/etc/maven/settings.xml', content: EMPTY_MAVEN_SETTINGS },
];

/** In a toolchain's prefix, relative to it. */
const PREFIX_FILES: readonly ConfigFile[] = [
  { path: 'pip.conf' },
  { path: '.condarc' },
  { path: 'condarc' },
  { path: 'condarc.d', dir: true },
  { path: '.mambarc' },
  { path: 'etc/npmrc' },
  { path: 'etc/yarnrc' },
  { path: 'lib/node_modules/npm/npmrc' },
  { path: 'etc/gemrc' },
  ...['.npmrc', '.yarnrc', '.pypirc', '.netrc', '_netrc', '.gemrc'].map((file) => ({ path: file })),
  { path: 'conf/settings.xml', content: EMPTY_MAVEN_SETTINGS, when: 'bin/mvn' },
  { path: 'conf/sbtopts', when: 'bin/sbt' },
  { path: 'gradle.properties', when: 'bin/gradle' },
  { path: 'init.d', dir: true, when: 'bin/gradle' },
];

/** Where a toolchain root keeps its installs, each a prefix (`*`: every folder there). */
const INSTALL_LAYOUTS: readonly (readonly string[])[] = [
  ['versions', '*'], // pyenv (and rbenv, nodenv, goenv)
  ['versions', 'node', '*'], // nvm
  ['installs', '*', '*'], // asdf, mise
  ['candidates', '*', '*'], // sdkman
  ['tools', 'image', '*', '*'], // volta
  ['envs', '*'], // conda's environments
  ['venvs', '*'], // pipx
];

/** sdkman's `candidates` folder mounted itself: `<tool>/<version>`. */
const CANDIDATES_LAYOUT = ['*', '*'];
/** The runner tool cache: `<tool>/<version>/<arch>`. */
const TOOL_CACHE_LAYOUT = ['*', '*', '*'];

/** Clients whose home is a prefix: found on the operator's PATH, where their launcher really is. */
const LAUNCHERS = ['python3', 'python', 'conda', 'node', 'ruby', 'mvn', 'gradle', 'sbt'];

const childrenOf = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** Without an exception per absent path: most looked for are (a few hundred per command). */
const infoOf = (file: string) => {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
};

const isDir = (dir: string): boolean => infoOf(dir)?.isDirectory() ?? false;

/** The folders a layout names under `dir`. */
const expand = (dir: string, layout: readonly string[]): string[] => {
  const [head, ...rest] = layout;
  if (head === undefined) return [dir];
  return (head === '*' ? childrenOf(dir) : [head])
    .map((name) => path.join(dir, name))
    .filter(isDir)
    .flatMap((next) => expand(next, rest));
};

const real = (file: string): string | undefined => {
  try {
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
};

/** Every prefix under a root by its layout: the root, its installs, their conda environments. */
const prefixesOf = (root: string, toolCache: string | undefined): string[] => {
  const layouts = [
    [],
    ...INSTALL_LAYOUTS,
    ...(path.basename(root) === 'candidates' ? [CANDIDATES_LAYOUT] : []),
    ...(root === toolCache || path.basename(root) === 'hostedtoolcache' ? [TOOL_CACHE_LAYOUT] : []),
  ];
  const installs = layouts.flatMap((layout) => expand(root, layout));
  return [...installs, ...installs.flatMap((prefix) => expand(prefix, ['envs', '*']))];
};

/** The roots whose prefixes are looked at: what the sandbox mounts and where clients live. */
const rootsOf = (readable: readonly string[], env: Env): string[] => {
  const settings = settingsOf(env);
  const which = whichIn(settings.path);
  const launchers = LAUNCHERS.flatMap((name) => {
    const found = which(name);
    const where = found === undefined ? undefined : real(found);
    return where ? [path.dirname(path.dirname(where))] : [];
  });
  return [
    path.dirname(path.dirname(process.execPath)),
    '/usr',
    '/usr/local',
    ...childrenOf('/opt').map((name) => path.join('/opt', name)),
    ...readable,
    ...toolchainRootsOf(env),
    // A PATH entry's prefix: `/opt/hostedtoolcache/Python/3.12.0/x64/bin` is the install's.
    ...(settings.path ?? '')
      .split(':')
      .filter((entry) => path.isAbsolute(entry) && path.basename(entry) === 'bin')
      .map((entry) => path.dirname(entry)),
    ...launchers,
  ];
};

/**
 * The masks of the package managers' configuration files the sandbox would show: each where it
 * really is (Debian's Maven keeps its conf folder as a link into /etc), once, and only where a
 * mount of the sandbox shows it. Looked up again at most 5 s after the last time
 * (`bubblewrap-plan.ts`), and at once when a command's sandbox failed to start (a file an
 * administrator removed while regreen runs would leave a mask with nothing to cover); they follow
 * the mounts they cover.
 */
export const clientConfigMounts = (readable: readonly string[], env: Env): Mount[] => {
  const shown = [...SYSTEM_DIRS, '/etc', ...readable].flatMap((dir) => real(dir) ?? []);
  const toolCache = settingsOf(env).runnerToolCache;
  const toolCacheReal = toolCache === undefined ? undefined : real(toolCache);
  const candidates: { file: string; entry: ConfigFile }[] = SYSTEM_FILES.map((entry) => ({
    file: entry.path,
    entry,
  }));
  const roots = new Set(rootsOf(readable, env).flatMap((root) => real(root) ?? []));
  const seen = new Set<string>();
  for (const root of roots) {
    // Never `/` (the parent of a PATH entry `/bin`): its folders are roots of their own here.
    if (root === '/' || !isDir(root)) continue;
    for (const prefix of prefixesOf(root, toolCacheReal)) {
      if (seen.has(prefix)) continue;
      seen.add(prefix);
      // One listing of the prefix, not a look-up per file: most prefixes hold none of them.
      const names = new Set(childrenOf(prefix));
      const holds = (file: string): boolean => names.has(file.split('/')[0] ?? '');
      for (const entry of PREFIX_FILES) {
        if (!holds(entry.path)) continue;
        if (entry.when && !(holds(entry.when) && infoOf(path.join(prefix, entry.when)))) continue;
        candidates.push({ file: path.join(prefix, entry.path), entry });
      }
    }
  }
  const masks = new Map<string, Mount>();
  for (const { file, entry } of candidates) {
    const where = real(file);
    if (!where || masks.has(where) || !shown.some((dir) => isAncestorOrSame(dir, where))) continue;
    const info = infoOf(where);
    if (!info || (entry.dir ? !info.isDirectory() : !info.isFile())) continue;
    masks.set(where, {
      kind: entry.dir ? 'mask-dir' : 'mask-file',
      source: where,
      target: where,
      ...(entry.content ? { content: entry.content } : {}),
    });
  }
  return [...masks.values()];
};
