import type { Env } from '../../config/env.ts';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
const subcommandAt = (args: readonly string[]): number => {
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
const viewed = (
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

/** The probe's answer: available for good once it was; else why not, asked again after a while. */
let probed: { readonly why: string | undefined; readonly at: number } | undefined;
const PROBE_AGAIN_MS = 30_000;

/**
 * Why this host cannot run git on the view of a workspace (see `viewed`);
 * undefined when it can. The view must refuse a link on the workspace and
 * show nothing outside it: git exits 128 on both, saying why (in the C
 * locale the view runs in). A failure is asked again after a while (a host
 * too slow for the probe's time limit once is not a host without the view),
 * and the callers that need the view fail closed meanwhile.
 */
export const noFollowUnavailable = (now = Date.now()): string | undefined => {
  if (probed && (probed.why === undefined || now - probed.at < PROBE_AGAIN_MS)) return probed.why;
  const why = probe();
  probed = { why, at: now };
  return why;
};

const probe = (): string | undefined => {
  let probeDir: string | undefined;
  try {
    probeDir = mkdtempSync(path.join(os.tmpdir(), 'regreen-nofollow-'));
    const workspace = path.join(probeDir, 'workspace');
    const outside = path.join(probeDir, 'outside');
    mkdirSync(path.join(workspace, 'dir'), { recursive: true });
    mkdirSync(outside);
    symlinkSync('dir', path.join(workspace, 'link'));
    /** What was wrong with one call: undefined when git refused it as expected. */
    const refused = (args: readonly string[], expected: RegExp): string | undefined => {
      const view = viewed(workspace, args, undefined);
      const result = spawnSync('unshare', view.argv, {
        stdio: 'pipe',
        timeout: 15_000,
        env: view.env,
        encoding: 'utf8',
      });
      if (result.error) return result.error.message;
      if (result.status === 0) return 'passed';
      const said = result.stderr.trim().split('\n').at(-1) ?? '';
      return result.status === 128 && expected.test(said)
        ? undefined
        : `exit ${result.status ?? result.signal}: ${said}`;
    };
    // One process each: the view is made, and refuses what it was made to refuse.
    const link = refused(['-C', 'link', '--version'], /too many levels of symbolic links/i);
    const host = link ?? refused(['-C', outside, '--version'], /no such file or directory/i);
    if (link === 'passed')
      return 'a link on the bound workspace was followed (nosymfollow had no effect)';
    if (host === 'passed') return 'a folder outside the workspace was visible in its view';
    const failed = link ?? host;
    return failed === undefined
      ? undefined
      : `unshare with a chrooted nosymfollow view failed: ${failed}`;
  } catch (error) {
    return `the view could not be made: ${(error as Error).message}`;
  } finally {
    if (probeDir) rmSync(probeDir, { recursive: true, force: true });
  }
};

export interface HostGitOptions {
  readonly cwd: string;
  /**
   * Read the worktree `cwd` on its view: nothing else of the host, no link
   * followed (see `viewed`); refused where the host cannot make one (Linux).
   */
  readonly noFollow?: boolean;
  /** Variables for this process only (credentials for a remote, as `GIT_CONFIG_*`). */
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** What git reads on stdin (a patch for `apply -`). */
  readonly input?: string;
}

export class HostGitError extends Error {
  override readonly name = 'HostGitError';
  constructor(
    message: string,
    readonly stderr: string,
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

/** Runs `git <args>` on the host, hardened; resolves with stdout. */
export const hostGit = (args: readonly string[], options: HostGitOptions): Promise<string> =>
  new Promise((resolve, reject) => {
    // Fails closed: on Linux, where the sandbox is, a worktree is read on its view or not at all.
    // Elsewhere there is no sandbox to keep the repository's code in, and nothing for a view to add.
    const unavailable =
      options.noFollow && process.platform === 'linux' ? noFollowUnavailable() : undefined;
    if (unavailable) {
      reject(
        new HostGitError(
          `git ${args[subcommandAt(args)] ?? ''} needs a view of the workspace of its own, and this host cannot make one: ${unavailable}`,
          '',
          null,
        ),
      );
      return;
    }
    const view =
      options.noFollow && process.platform === 'linux'
        ? viewed(options.cwd, args, options.env)
        : undefined;
    const child = execFile(
      view ? 'unshare' : 'git',
      view ? view.argv : hostArgs(args),
      {
        cwd: options.cwd,
        env: view ? view.env : hostGitEnv(options.env),
        timeout: options.timeoutMs ?? 300_000,
        maxBuffer: 256 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const code = typeof error.code === 'number' ? error.code : null;
        reject(
          new HostGitError(
            `git ${args[subcommandAt(args)] ?? ''} failed: ${`${stderr || error.message}`.trim()}`,
            `${stderr}`,
            code,
          ),
        );
      },
    );
    // What git reads on stdin (a patch), or nothing: an open stdin would be waited on.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input ?? '');
  });

/** A worktree sandboxed code wrote, read (and written) by host git on its view only (`viewed`). */
export const workspaceGit = (dir: string): HostRepo => ({
  raw: (args) => hostGit(args, { cwd: dir, noFollow: true }),
  revparse: (args) => hostGit(['rev-parse', ...args], { cwd: dir, noFollow: true }),
});

/**
 * How long a synchronous host git may take: it holds the whole process (every
 * timer, every other job) while it runs, and a FIFO a sandboxed command left
 * where git opens a file (`.gitignore`, `.gitattributes`) would hold it forever.
 */
export const HOST_GIT_SYNC_TIMEOUT_MS = 120_000;

/**
 * The synchronous form, for reads of an index, of objects and of trees no
 * sandboxed code wrote; killed at its time limit. A worktree sandboxed code
 * wrote (what its view is for) is read by `hostGit` only, never holding the
 * process.
 */
export const hostGitSync = (
  args: readonly string[],
  options: {
    cwd: string;
    maxBuffer?: number;
    input?: string;
    env?: Readonly<Record<string, string>>;
    timeoutMs?: number;
  },
): Buffer =>
  execFileSync('git', hostArgs(args), {
    cwd: options.cwd,
    ...(options.input === undefined ? {} : { input: options.input }),
    env: hostGitEnv(options.env),
    maxBuffer: options.maxBuffer ?? 256 * 1024 * 1024,
    stdio: 'pipe',
    timeout: options.timeoutMs ?? HOST_GIT_SYNC_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });

/** A handle on one directory, for code that runs several git commands there. */
export interface HostRepo {
  raw(args: readonly string[]): Promise<string>;
  revparse(args: readonly string[]): Promise<string>;
}

export const git = (dir: string): HostRepo => ({
  raw: (args) => hostGit(args, { cwd: dir }),
  revparse: (args) => hostGit(['rev-parse', ...args], { cwd: dir }),
});

export const IDENTITY = [
  '-c',
  'user.name=regreen',
  '-c',
  'user.email=regreen@users.noreply.invalid',
];
