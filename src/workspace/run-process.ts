import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { execa } from 'execa';
import { TailBuffer } from '../util/text.ts';

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
}

/** Raised when the program itself cannot be started (ENOENT, EACCES). */
export class SpawnError extends Error {
  override readonly name = 'SpawnError';
}

const killGroup = (pid: number | undefined): void => {
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
export const runProcess = async (request: RunProcessRequest): Promise<CommandResult> => {
  const started = Date.now();
  // An abort that came before the start: never start (an 'abort' listener would not fire any more).
  if (request.signal?.aborted)
    return {
      exitCode: null,
      timedOut: false,
      output: '[cancelled before it started]\n',
      droppedBytes: 0,
      durationMs: 0,
    };
  const output = new TailBuffer(request.maxOutputBytes);
  const child = execa(request.file, [...request.args], {
    cwd: request.cwd,
    env: request.env,
    extendEnv: false,
    detached: true,
    buffer: false,
    all: true,
    reject: false,
    stripFinalNewline: false,
    input: request.stdin ?? '',
  });
  child.all?.on('data', (chunk: Buffer) => output.push(chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, request.timeoutMs);
  const onAbort = (): void => killGroup(child.pid);
  request.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await child;
    if (result.failed && result.exitCode === undefined && result.signal === undefined) {
      throw new SpawnError(`cannot start ${request.file}: ${result.shortMessage}`, {
        cause: result.cause,
      });
    }
    // Children that detached from the shell but stayed in the group die here too.
    killGroup(child.pid);
    return {
      exitCode: result.exitCode ?? null,
      timedOut,
      output: output.toString(),
      droppedBytes: output.dropped,
      durationMs: Date.now() - started,
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
