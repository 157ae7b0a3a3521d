/**
 * The host process that starts bubblewrap for one command, started before
 * the command is asked for: a shell of regreen's (no startup file,
 * `LAUNCHER_ENV`) that joins the command's control group, closes every
 * descriptor it inherited but its own pipes, and waits for its word. Joining
 * a group is the slow part of a start — the kernel waits for every CPU to
 * pass a quiescent state, 0–16 ms here — and a launcher that waits in its
 * group paid that while the job did something else.
 *
 * Its word is one line on its own pipe (descriptor 3), then the pipe closes:
 * the path of a file of regreen's, opened and unlinked, that holds the rest,
 * NUL-separated (a shell reads a pipe a byte at a time, a file in blocks):
 *
 * - the descriptors the command is given, each as `/proc/<regreen>/fd/<n>`
 *   (the same open file, not a path looked up again), which become 3, 4, …,
 *   with the ready pipe after them;
 * - a command line run first, as the launcher (the hand-over of root's files
 *   in the writable folders), whose failure stops the start;
 * - the argv it then execs.
 *
 * A pipe that closes with no word (regreen gone, the launcher discarded) ends it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { LAUNCHER_ENV } from './bwrap.ts';
import type { CommandCgroup } from './cgroups.ts';
import { RegreenError } from '../../errors.ts';
import { killGroup } from '../run-process.ts';

/** The descriptors a launcher holds while it waits: its word's pipe, and the ready pipe. */
const WORD_FD = 3;
const READY_FD = 4;

const SCRIPT = [
  `for fd in /proc/$$/fd/*; do n=\${fd##*/}; if [ "$n" -gt ${READY_FD} ] 2>/dev/null; then eval "exec $n>&-" 2>/dev/null; fi; done`,
  `read -r -d '' -u ${WORD_FD} word || exit 0`,
  `exec ${WORD_FD}<&-`,
  `mapfile -d '' w < "$word" || exit 125`,
  'k=${w[0]}; h=${w[$((k+1))]}; at=$((k+2))',
  `if [ "$h" -gt 0 ]; then "\${w[@]:$at:$h}" >/dev/null || { echo "regreen: the sandbox could not take over its folders" >&2; exit 125; }; fi`,
  'at=$((at+h))',
  // Out of the way of 3, 4, …: the ready pipe, then each descriptor, before they take their places.
  `eval "exec $((k+9))>&${READY_FD} ${READY_FD}>&-"`,
  'for ((i=0; i<k; i++)); do eval "exec $((k+10+i))<\\"\\${w[$((i+1))]}\\"" || exit 125; done',
  'for ((i=0; i<k; i++)); do eval "exec $((3+i))<&$((k+10+i)) $((k+10+i))<&-"; done',
  'eval "exec $((3+k))>&$((k+9)) $((k+9))>&-"',
  'exec "${w[@]:$at}"',
].join('\n');

/**
 * A word as the launcher and the waiting sandbox read it: each field ended
 * by a NUL. A field that holds a NUL itself (a command, a variable a
 * workflow declares) is refused, as exec refuses one: it would end early,
 * and what follows would be read as the next fields — another program,
 * bubblewrap's own options.
 */
export const nulWord = (fields: readonly string[]): Buffer => {
  const split = fields.find((field) => field.includes('\0'));
  if (split !== undefined)
    throw new RegreenError(
      'config',
      `a command, its folder and its variables cannot hold a NUL byte, as no program's can: ${JSON.stringify(split.slice(0, 120))}`,
    );
  return Buffer.from(fields.map((field) => `${field}\0`).join(''));
};

/** The most one argument of a program may be on Linux, its NUL included (`MAX_ARG_STRLEN`: 32 pages). */
const MAX_ARG_BYTES = 32 * 4096;

/**
 * Refuses a command or a variable (`KEY=value`) that no program could be started with: each is
 * one argument of the program that runs it, and the kernel refuses one over 128 KiB (E2BIG),
 * whatever starts it. Said as what it is, before a sandbox is tried (a step's `env` of 400 KB
 * once read as a sandbox that failed to start three times).
 */
export const execWords = (command: string, env: Readonly<Record<string, string>>): void => {
  const words: [string, string][] = [
    ['the command', command],
    ...Object.entries(env).map(([key, value]): [string, string] => [
      `the variable ${JSON.stringify(key.slice(0, 80))}`,
      `${key}=${value}`,
    ]),
  ];
  for (const [what, word] of words) {
    const bytes = Buffer.byteLength(word) + 1;
    if (bytes > MAX_ARG_BYTES)
      throw new RegreenError(
        'config',
        `${what} is ${Math.ceil(bytes / 1024)} KiB, more than the ${MAX_ARG_BYTES / 1024} KiB Linux passes as one argument to a program: nothing can start it (for a workflow step's env or script this long, name the commands in .github/regreen.yml: setup_command, test_command)`,
      );
  }
};

export interface LaunchWord {
  /** regreen's own open descriptors, given to the command as 3, 4, … in this order. */
  readonly fds: readonly number[];
  /** A command line the launcher runs before it execs `argv`; empty for none. */
  readonly first: readonly string[];
  readonly argv: readonly string[];
}

export interface Launched {
  readonly child: ChildProcess;
  /** The pipe the command's first process writes its ready byte to. */
  readonly ready: Readable;
  readonly group: CommandCgroup | undefined;
  /** Closes regreen's copy of the word (once the command has started or ended). */
  readonly done: () => void;
  /** Lets it keep regreen's event loop and exit waiting, as a running command does. */
  readonly ref: () => void;
  /** Its exit and close, heard from its start: it may end before anyone supervises it. */
  readonly settled: { readonly exited: Promise<number | null>; readonly closed: Promise<void> };
}

export interface WaitingLauncher {
  /** Its process id (and its process group's). */
  readonly pid: number | undefined;
  /** Whether it still waits (a launcher whose group refused it has ended). */
  readonly waiting: boolean;
  /**
   * Gives it its word: it starts the command (`idle`: a command that waits in
   * turn, which keeps nothing of regreen's waiting until its `ref`).
   */
  start(word: LaunchWord, options?: { readonly idle?: boolean }): Launched;
  /** Ends it without a word, and removes its group. */
  discard(): void;
}

const unref = (stream: Readable | Writable | null | undefined): void => {
  (stream as { unref?: () => void } | null | undefined)?.unref?.();
};
const ref = (stream: Readable | Writable | null | undefined): void => {
  (stream as { ref?: () => void } | null | undefined)?.ref?.();
};

/**
 * A launcher waiting in `group` (when this host gives regreen one). Until it
 * is given its word it keeps neither regreen's event loop nor its exit
 * waiting. `dir` is a folder of regreen's the command never sees, for the word's file.
 */
export const waitingLauncher = (dir: string, group: CommandCgroup | undefined): WaitingLauncher => {
  const child = spawn(
    '/bin/bash',
    [
      '--norc',
      '--noprofile',
      '-c',
      `${group ? `${group.enter}\n` : ''}${SCRIPT}`,
      'regreen-launcher',
    ],
    {
      cwd: '/',
      env: LAUNCHER_ENV,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'],
    },
  );
  const pipes = child.stdio;
  const wordPipe = pipes[WORD_FD] as Writable;
  for (const pipe of pipes) (pipe as Readable | Writable | null)?.on('error', () => undefined);
  child.on('error', () => undefined);
  child.unref();
  for (const pipe of pipes) unref(pipe);
  let ended = false;
  const settled = {
    exited: new Promise<number | null>((resolve) => {
      child.once('exit', (code) => {
        ended = true;
        resolve(code);
      });
      child.once('error', () => resolve(null));
    }),
    closed: new Promise<void>((resolve) => child.once('close', () => resolve())),
  };
  let taken = false;
  return {
    pid: child.pid,
    get waiting() {
      return !taken && !ended && child.exitCode === null && child.signalCode === null;
    },
    start: (word, options) => {
      const fdPath = (fd: number): string => `/proc/${process.pid}/fd/${fd}`;
      const text = nulWord([
        String(word.fds.length),
        ...word.fds.map(fdPath),
        String(word.first.length),
        ...word.first,
        ...word.argv,
      ]);
      taken = true;
      const file = path.join(dir, `launch-${randomBytes(6).toString('hex')}`);
      writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
      let held: number | undefined;
      try {
        held = openSync(file, 'r');
      } finally {
        rmSync(file, { force: true });
      }
      const keep = (): void => {
        child.ref();
        for (const pipe of pipes) ref(pipe);
      };
      if (!options?.idle) keep();
      wordPipe.end(`${fdPath(held)}\0`);
      return {
        ref: keep,
        settled,
        child,
        ready: pipes[READY_FD] as Readable,
        group,
        done: () => {
          if (held === undefined) return;
          closeSync(held);
          held = undefined;
        },
      };
    },
    discard: () => {
      taken = true;
      wordPipe.end();
      if (!ended) killGroup(child.pid);
      if (ended) group?.remove();
      else child.once('exit', () => group?.remove());
    },
  };
};
