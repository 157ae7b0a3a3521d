import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { boundText, TailBuffer } from '../util/text.ts';

/** What a command run (in a sandbox or not) produced. */
export interface CommandResult {
  /** The exit code, or null when the process was killed by a signal. */
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** stdout and stderr interleaved, the tail kept within the cap. */
  readonly output: string;
  /** How many bytes of output were dropped from the head. */
  readonly droppedBytes: number;
  readonly durationMs: number;
  /**
   * How long the command itself ran: from the sandbox's word that it is about
   * to start (else the spawn) to its exit. What is left of `durationMs`, and
   * anything a sandbox did before the spawn, is regreen's own.
   */
  readonly ranMs?: number;
  /** A resource limit of the sandbox the command ran into, in words. */
  readonly limit?: string;
}

export interface RunProcessRequest {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
  readonly stdin?: string;
  /** Hears the output as it comes (a live progress line); the result still holds it. */
  readonly onOutput?: (chunk: Buffer) => void;
  /** Descriptors the child inherits as 3, 4, …; the caller closes its own copies. */
  readonly extraFds?: readonly number[];
  /**
   * A pipe the child inherits as the descriptor after `extraFds`: anything
   * written to it before the child closes it sets `signalled` in the result
   * (the sandbox's "the command is about to start", which the command
   * itself can neither fake away nor take back).
   */
  readonly readyPipe?: boolean;
  /** Called once the process runs, with its process group id. */
  readonly onStart?: (pid: number) => void;
}

/** Raised when the program itself cannot be started (ENOENT, EACCES). */
export class SpawnError extends Error {
  override readonly name = 'SpawnError';
}

/** Kills a process group (a process started `detached` and all it left in its group), if any is left. */
export const killGroup = (pid: number | undefined): void => {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
};

/**
 * Runs a program in its own process group. At the time limit (or on abort) the
 * whole group is killed, so children that outlive the shell die with it.
 */
export const runProcess = async (
  request: RunProcessRequest,
): Promise<CommandResult & { readonly signalled: boolean }> => {
  // An abort that came before the start: never start (an 'abort' listener would not fire any more).
  if (request.signal?.aborted) return cancelledBeforeStart();
  const extra = request.extraFds ?? [];
  const child = spawn(request.file, [...request.args], {
    cwd: request.cwd,
    env: request.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe', ...extra, ...(request.readyPipe ? ['pipe' as const] : [])],
  });
  const ready = request.readyPipe ? (child.stdio[3 + extra.length] as Readable | null) : null;
  return superviseProcess(child, request, ready);
};

const cancelledBeforeStart = (): CommandResult & { readonly signalled: boolean } => ({
  exitCode: null,
  timedOut: false,
  output: '[cancelled before it started]\n',
  droppedBytes: 0,
  durationMs: 0,
  signalled: false,
});

/** What supervising a started process needs of its request: its limits, input and listeners. */
export type SupervisedRequest = Pick<
  RunProcessRequest,
  'timeoutMs' | 'maxOutputBytes' | 'signal' | 'stdin' | 'onOutput' | 'onStart'
>;

/**
 * Sees a started process (the leader of its own process group) through: its
 * output kept within the cap, its input given, the whole group killed at the
 * time limit, on abort and once the process exits. `ready` is the pipe of the
 * sandbox's word that the command is about to start (`readyPipe`).
 */
export const superviseProcess = async (
  child: ChildProcess,
  request: SupervisedRequest,
  ready: Readable | null,
  /** Its exit and close as heard since it started, for a process started before this call. */
  settled?: { readonly exited: Promise<number | null>; readonly closed: Promise<void> },
): Promise<CommandResult & { readonly signalled: boolean }> => {
  const started = Date.now();
  if (request.signal?.aborted) {
    killGroup(child.pid);
    return cancelledBeforeStart();
  }
  const output = new TailBuffer(request.maxOutputBytes);
  let signalled = false;
  let readyAt = Date.now();
  ready?.on('data', () => {
    if (!signalled) readyAt = Date.now();
    signalled = true;
  });
  ready?.on('error', () => undefined);
  const hear = (chunk: Buffer): void => {
    output.push(chunk);
    request.onOutput?.(chunk);
  };
  child.stdout?.on('data', hear);
  child.stderr?.on('data', hear);
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(request.stdin ?? '');
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, request.timeoutMs);
  const onAbort = (): void => killGroup(child.pid);
  request.signal?.addEventListener('abort', onAbort, { once: true });
  if (child.pid !== undefined) request.onStart?.(child.pid);
  try {
    const closed =
      settled?.closed ?? new Promise<void>((resolve) => child.once('close', () => resolve()));
    const exitCode = await (settled?.exited ??
      new Promise<number | null>((resolve, reject) => {
        child.once('error', (error) =>
          reject(
            new SpawnError(`cannot start ${child.spawnfile}: ${error.message}`, { cause: error }),
          ),
        );
        child.once('exit', (code) => resolve(code));
      }));
    const ranMs = Date.now() - readyAt;
    // Children that detached from the shell but stayed in the group die here too.
    killGroup(child.pid);
    // A process that left the group may hold the pipes open: read what is there, then stop.
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    child.stdout?.destroy();
    child.stderr?.destroy();
    return {
      exitCode,
      timedOut,
      // What the command wrote is the repository's: each line bounded where it enters the host.
      output: boundText(output.toString()),
      droppedBytes: output.dropped,
      durationMs: Date.now() - started,
      ranMs,
      signalled,
    };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
  }
};

/** A long-running child with pipes, killed as a whole process group. */
export interface SpawnedProcess {
  /** The process (and process group) id, once started. */
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  readonly exited: Promise<number | null>;
  /** Kills the process and everything it started. */
  kill(): void;
}

/** Starts a long-running program in its own process group, with pipes for its stdio. */
export const spawnProcess = (request: {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** Descriptors the child inherits as 3, 4, …; the caller closes its own copies. */
  extraFds?: readonly number[];
}): SpawnedProcess => {
  const child = spawn(request.file, [...request.args], {
    cwd: request.cwd,
    env: request.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe', ...(request.extraFds ?? [])],
  }) as ChildProcessWithoutNullStreams;
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  return {
    pid: child.pid,
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    kill: () => killGroup(child.pid),
  };
};
