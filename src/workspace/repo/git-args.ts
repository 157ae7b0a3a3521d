import type { Env } from '../../config/env.ts';
import { VIEW_PATH, VIEW_WORKSPACE, viewArgv } from './git-view.ts';

/**
 * Host-side git. A workspace is hostile input: its tree, its attributes and
 * whatever its code planted (nested repositories, `.gitattributes`), so every
 * git process regreen starts on the host reads no configuration but regreen's
 * own and the repository's `.git/config` (written by regreen's clone, never
 * writable from the sandbox), never enters a nested repository, and never runs
 * a program the repository could name: no hook, fsmonitor, pager, external
 * diff, textconv, credential helper or askpass, no system or global config
 * (where a filter or driver could be defined for the repository's attributes
 * to call). Close the class, not one instance.
 */
export const SAFE_GIT_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.askPass=',
  'core.attributesFile=/dev/null',
  'core.untrackedCache=false',
  'credential.helper=',
  'diff.ignoreSubmodules=all',
  'status.submoduleSummary=false',
  'submodule.recurse=false',
  'fetch.recurseSubmodules=false',
  'protocol.ext.allow=never',
  'gc.auto=0',
  'maintenance.auto=false',
  // When regreen runs as root, a workspace belongs to the sandbox's unprivileged uid
  // (`sandbox/identity.ts`). The ownership check guards against another user's config
  // running programs; the settings above already run none of the repository's.
  'safe.directory=*',
].flatMap((entry) => ['-c', entry]);

/**
 * The commands that compare the worktree, and for a submodule ask its own git
 * (its configuration, its filters) whether it changed. `diff.ignoreSubmodules`
 * above is a default that a `.gitmodules` line (`ignore = none`, which sandboxed
 * code can write) overrides; `--ignore-submodules=all` on the command line is
 * not. Every host git call goes through `hostArgs`, so none can forget it.
 */
const COMPARING_WORKTREE = new Set(['status', 'diff', 'diff-files', 'diff-index']);

/** Where the subcommand is in `git <args>`: after the options (and the values of `-c` and `-C`). */
export const subcommandAt = (args: readonly string[]): number => {
  let at = 0;
  while (at < args.length) {
    const arg = args[at] ?? '';
    if (arg === '-c' || arg === '-C') at += 2;
    else if (arg.startsWith('-')) at += 1;
    else break;
  }
  return at;
};

/** `git <args>` as the host runs it: regreen's configuration first, submodules never entered. */
export const hostArgs = (args: readonly string[]): string[] => {
  const at = subcommandAt(args);
  const command = args[at];
  // It runs a status of the worktree (nothing staged) that no option keeps out of submodules.
  if (command === 'commit')
    throw new Error('host git commits by plumbing only (commitStaged), never by `git commit`');
  const guarded =
    command !== undefined && COMPARING_WORKTREE.has(command)
      ? [...args.slice(0, at + 1), '--ignore-submodules=all', ...args.slice(at + 1)]
      : args;
  return [...SAFE_GIT_CONFIG, ...guarded];
};

/** Variables of the caller's environment that would steer git: never passed on. */
const isGitSteering = (name: string): boolean =>
  /^GIT_/.test(name) || name === 'PAGER' || name === 'EDITOR' || name === 'VISUAL';

/** The environment of a host git process: the caller's, minus anything git reads as configuration. */
export const hostGitEnv = (
  extra: Readonly<Record<string, string>> = {},
  base: Env = process.env,
): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !isGitSteering(name)) env[name] = value;
  }
  // A relative entry (an empty one is the folder itself) would find a program in the workspace,
  // where host git runs.
  const path_ = (env.PATH ?? '').split(':').filter((dir) => dir.startsWith('/'));
  return {
    ...env,
    PATH: path_.length > 0 ? path_.join(':') : '/usr/bin:/bin',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    GIT_PAGER: 'cat',
    GIT_OPTIONAL_LOCKS: '0',
    ...extra,
  };
};

/**
 * A worktree that sandboxed code may change while git reads it (a kernel's
 * background process swapping a folder for a link between git's `lstat` and
 * its `open`), or left a `.git` file in naming a repository elsewhere on the
 * host, is read by a git that sees nothing but it: chrooted into a view of
 * its own where no link on the workspace is followed (`git-view.ts`). The
 * index file a caller names (`GIT_INDEX_FILE`) is bound beside it.
 */
export const viewed = (
  workspace: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> | undefined,
): { readonly argv: string[]; readonly env: Record<string, string> } => {
  const view = viewArgv(workspace, env?.GIT_INDEX_FILE, [
    'git',
    '-C',
    VIEW_WORKSPACE,
    // Windows into packs well inside the view's memory bound.
    '-c',
    'core.packedGitWindowSize=64m',
    '-c',
    'core.packedGitLimit=512m',
    ...hostArgs(args),
  ]);
  return {
    argv: view.argv,
    env: hostGitEnv({
      ...env,
      ...(view.indexFile ? { GIT_INDEX_FILE: view.indexFile } : {}),
      PATH: VIEW_PATH,
      // Its messages as the probe reads them, whatever the host's language.
      LC_ALL: 'C',
      LANGUAGE: '',
    }),
  };
};
