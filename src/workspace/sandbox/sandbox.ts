import type { Env } from '../../config/env.ts';
import { printable } from '../../util/text.ts';
import type { CommandResult, SpawnedProcess } from '../run-process.ts';
import type { RegistryAlias } from './registry-aliases.ts';

export type { CommandResult };

/** `off`: no network at all. `setup`: only the package registries (host and port) of the user's own configuration. */
export type NetworkMode = 'off' | 'setup';

export interface SandboxRunRequest {
  /** A shell command line, run with bash. */
  readonly command: string;
  /** Absolute; must be inside the workspace. */
  readonly cwd: string;
  readonly network: NetworkMode;
  readonly timeoutMs: number;
  readonly maxOutputBytes?: number;
  readonly signal?: AbortSignal;
  /** Hears the command's output as it comes (a live progress line); the result still holds it all. */
  readonly onOutput?: (chunk: Buffer) => void;
  /** Variables the caller declares for this command (a workflow step's `env:`); never credentials: they are scrubbed again. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Files and folders of the workspace bound onto themselves for this command
   * (a file read-only, a folder as it is): a mount point can be neither
   * renamed, replaced nor removed, whoever owns the folder holding it. The
   * judging runs hold the top folder's entries of the base's tests so. One
   * that is no longer a file or folder (a link now) is not bound: what
   * changed is the guard's to report.
   */
  readonly hold?: readonly string[];
  /**
   * A run the checks judge a change by: no bytecode cache is read or written
   * (Python's prefix is a path under which nothing can exist), so code under
   * test cannot hand the runner a compiled test module of its own making.
   */
  readonly judged?: boolean;
}

/**
 * What one command may use. Each bounds the command and everything it starts:
 * processes at once (RLIMIT_NPROC, counted in the sandbox's own user
 * namespace), memory per process (RLIMIT_DATA), disk written (the workspace,
 * tmp and home together, watched while it runs; and RLIMIT_FSIZE per file).
 */
export interface CommandLimits {
  readonly processes: number;
  readonly memoryMb: number;
  readonly diskMb: number;
}

export const DEFAULT_COMMAND_LIMITS: CommandLimits = {
  processes: 1024,
  memoryMb: 8192,
  diskMb: 8192,
};

/** What one job's sandbox may touch. */
export interface SandboxPolicy {
  /** The only tree a command may write to (plus the private tmp). */
  readonly workspace: string;
  /** The job's private folder: tmp and home live here. */
  readonly privateDir: string;
  /**
   * The private folder is on a job volume that goes whole when the job ends
   * (unmounted and deleted): the sandbox's dispose leaves it to that.
   */
  readonly privateDirOnVolume?: boolean;
  /**
   * Host folders a command may read besides its workspace and private folders
   * (toolchains, regreen's own code); the system folders are added by the
   * adapter. See mounts.ts.
   */
  readonly readable: readonly string[];
  /**
   * Host folders no command may see, hidden by an empty folder wherever a
   * readable or system folder holds them (a self-hosted runner under `/opt`:
   * its temp, its checkout). See `secretMasks` in mounts.ts.
   */
  readonly hidden?: readonly string[];
  /** `host:port` pairs the setup step may reach (a bare host means ports 80 and 443). */
  /** May still be asked of the clients when the sandbox opens: awaited by the first setup command. */
  readonly registryHosts: readonly string[] | Promise<readonly string[]>;
  readonly limits: CommandLimits;
  /** The environment commands start from, before scrubbing. */
  readonly baseEnv: Env;
  /** Files the private home starts with (relative path → text): the sandbox's own client settings. */
  readonly homeFiles?: Readonly<Record<string, string>>;
  /**
   * The operator's registries: the sandbox's variables and home files name each by its alias
   * only; the setup proxy serves the alias from the operator's URL (`registry-aliases.ts`).
   */
  readonly registries?: readonly RegistryAlias[];
}

/**
 * A long-running process in the sandbox (a language server, a kernel), talked
 * to over its pipes: the same shape as any spawned process group.
 */
export type SandboxProcess = SpawnedProcess;

export interface SandboxSpawnRequest {
  /** The program and its arguments, quoted for the shell by the sandbox. */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** The port: runs commands confined to one job's workspace. */
export interface Sandbox {
  readonly kind: 'bubblewrap' | 'none';
  readonly policy: SandboxPolicy;
  run(request: SandboxRunRequest): Promise<CommandResult>;
  /** Starts a long-running process with no network, under the same rules as `run`. */
  spawn(request: SandboxSpawnRequest): Promise<SandboxProcess>;
  dispose(): Promise<void>;
}

export type SandboxKind = Sandbox['kind'];

export const DEFAULT_MAX_OUTPUT_BYTES = 256 * 1024;

/** How much of a run the checks read is kept: all of it, for any real suite (they count what ran). */
export const CHECKED_OUTPUT_BYTES = 16 * 1024 * 1024;

/** The same sandbox, its commands run through `run` (which calls the sandbox's own). */
export const wrapRun = (
  sandbox: Sandbox,
  run: (request: SandboxRunRequest) => Promise<CommandResult>,
): Sandbox => ({
  kind: sandbox.kind,
  policy: sandbox.policy,
  spawn: (request) => sandbox.spawn(request),
  dispose: () => sandbox.dispose(),
  run,
});

/** What one command cost, as a sandbox's user saw it: the whole call, and the command's own run within it. */
export interface TimedRun {
  readonly command: string;
  readonly exitCode: number | null;
  /** From the call to its answer: the sandbox's set-up and tear-down with the command. */
  readonly wallMs: number;
  /** The command's own run (`CommandResult.ranMs`); the rest of `wallMs` is the sandbox's. */
  readonly ranMs: number;
}

/** The same sandbox, each command's cost told to `onRun` once it answered (a run that threw tells nothing). */
export const timedRuns = (sandbox: Sandbox, onRun: (run: TimedRun) => void): Sandbox =>
  wrapRun(sandbox, async (request) => {
    const started = performance.now();
    const result = await sandbox.run(request);
    const wallMs = Math.round(performance.now() - started);
    onRun({
      command: request.command.length > 300 ? `${request.command.slice(0, 300)}…` : request.command,
      exitCode: result.exitCode,
      wallMs,
      ranMs: Math.min(wallMs, result.ranMs ?? result.durationMs),
    });
    return result;
  });

/**
 * The same sandbox, with every command's output also heard line by line (the
 * last complete non-blank line, cleaned of colours and carriage-return
 * redraws): what a live progress line shows.
 */
export const withLiveOutput = (sandbox: Sandbox, onLine: (line: string) => void): Sandbox =>
  wrapRun(sandbox, (request) => {
    let partial = '';
    return sandbox.run({
      ...request,
      onOutput: (chunk) => {
        request.onOutput?.(chunk);
        const text = partial + chunk.toString('utf8');
        const lines = text.split('\n');
        partial = (lines.pop() ?? '').slice(-4096);
        const last = lines
          .map(
            (line) =>
              line
                .split('\r')
                .filter((piece) => piece.trim() !== '')
                .at(-1) ?? '',
          )
          .map((line) => printable(line).trim())
          .findLast((line) => line !== '');
        if (last) onLine(last);
      },
    });
  });
