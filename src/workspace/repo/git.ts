import { execFile, execFileSync } from 'node:child_process';
import { hostArgs, hostGitEnv, subcommandAt, viewed } from './git-args.ts';
import { noFollowProbe } from './git-view-probe.ts';

export { hostArgs, hostGitEnv, SAFE_GIT_CONFIG } from './git-args.ts';
export { noFollowProbe } from './git-view-probe.ts';

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
export const hostGit = async (
  args: readonly string[],
  options: HostGitOptions,
): Promise<string> => {
  // Fails closed: on Linux, where the sandbox is, a worktree is read on its view or not at all.
  // Elsewhere there is no sandbox to keep the repository's code in, and nothing for a view to add.
  const unavailable =
    options.noFollow && process.platform === 'linux' ? await noFollowProbe() : undefined;
  if (unavailable)
    throw new HostGitError(
      `git ${args[subcommandAt(args)] ?? ''} needs a view of the workspace of its own, and this host cannot make one: ${unavailable}`,
      '',
      null,
    );
  return new Promise((resolve, reject) => {
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
};

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
