/**
 * A sandbox made before its command: bubblewrap has made its namespaces and
 * mounts, and its first process waits (`bwrap.ts`, `waitFor`). Making them
 * is most of a command's start (about 10 ms of bubblewrap's here, a bind and
 * a read-only remount each); a sandbox made while the job did something else
 * has paid it, and its command starts in a few processes.
 *
 * It takes a command only when it is what that command's own sandbox would
 * be: the same bubblewrap command line, and the same folders behind its
 * binds (the workspace, tmp and home, `.git` and each gitlink pinned, the
 * toolchains and regreen's own folders it shows, by device and inode, asked
 * again at the command's start). Anything else — a
 * setup step (its filter and proxy differ), a judged run holding its tests, a
 * gitlink that appeared, a folder replaced — discards it and starts cold.
 *
 * The word (the command's folder, the command, its environment) is written
 * to a file of regreen's, opened and unlinked, that only regreen and the
 * waiting first process hold; that process closes it before anything else
 * runs, then reads its go byte from stdin, which the command inherits empty.
 */
import { closeSync, fstatSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { nulWord, type Launched, type WaitingLauncher } from './launcher.ts';
import type { PinnedFds } from './bubblewrap-fds.ts';
import { killGroup } from '../run-process.ts';

export interface WaitingSandbox {
  /** Whether it still waits and was made as `argv` with the folders of `identity`. */
  fits(argv: readonly string[], identity: readonly string[]): boolean;
  /** Starts the command in it. */
  go(word: {
    readonly cwd: string;
    readonly command: string;
    readonly env: Readonly<Record<string, string>>;
  }): Launched;
  /** Ends it unused. */
  discard(): void;
}

/** A file of regreen's for the word, opened and unlinked: only descriptors reach it. */
export const openWordFile = (dir: string): number => {
  const file = path.join(dir, `word-${randomBytes(6).toString('hex')}`);
  const fd = openSync(file, 'wx+', 0o600);
  rmSync(file, { force: true });
  return fd;
};

/** What the binds of a sandbox stand on: each descriptor's and folder's device and inode ('none': gone). */
export const identityOf = (fds: readonly number[], dirs: readonly string[]): string[] => [
  ...fds.map((fd) => {
    const stats = fstatSync(fd);
    return `${stats.dev}:${stats.ino}`;
  }),
  ...dirs.map((dir) => {
    const stats = statSync(dir, { throwIfNoEntry: false });
    return stats ? `${stats.dev}:${stats.ino}` : 'none';
  }),
];

/**
 * A waiting sandbox started by `launcher` from `argv`. `wordFd` is regreen's
 * copy of the word's file; `release` closes regreen's copies of everything
 * the sandbox was given, once it has started or gone.
 */
export const waitingSandbox = (options: {
  readonly launcher: WaitingLauncher;
  readonly fds: readonly number[];
  readonly wordFd: number;
  readonly argv: readonly string[];
  readonly identity: readonly string[];
  readonly release: () => void;
}): WaitingSandbox => {
  const launched = options.launcher.start(
    { fds: options.fds, first: [], argv: options.argv },
    { idle: true },
  );
  let used = false;
  const done = (): void => {
    launched.done();
    options.release();
  };
  return {
    fits: (argv, identity) =>
      !used &&
      launched.child.exitCode === null &&
      launched.child.signalCode === null &&
      argv.length === options.argv.length &&
      argv.every((arg, i) => arg === options.argv[i]) &&
      identity.length === options.identity.length &&
      identity.every((id, i) => id === options.identity[i]),
    go: (word) => {
      const text = nulWord([
        word.cwd,
        word.command,
        ...Object.entries(word.env).map(([name, value]) => `${name}=${value}`),
      ]);
      used = true;
      writeSync(options.wordFd, text, 0, text.length, 0);
      launched.ref();
      launched.child.stdin?.write('G');
      return { ...launched, done };
    },
    discard: () => {
      if (used) return;
      used = true;
      const { child } = launched;
      if (child.exitCode === null && child.signalCode === null) {
        killGroup(child.pid);
        child.once('exit', () => launched.group?.remove());
      } else launched.group?.remove();
      child.stdin?.destroy();
      done();
    },
  };
};

/**
 * A waiting sandbox for a command pinned as `prepared` (regreen's copies of
 * its descriptors are closed once it has started or gone): the seccomp
 * program, the pins and the word's file are its descriptors, in that order.
 */
export const makeWaitingSandbox = (options: {
  readonly launcher: WaitingLauncher;
  readonly prepared: PinnedFds;
  readonly filterFd: () => number;
  /** A folder of regreen's the sandbox never sees, for the word's file. */
  readonly dir: string;
  /** Its bubblewrap line and the identity of its binds, for these pins. */
  readonly shape: (prepared: PinnedFds) => { argv: string[]; identity: string[] };
}): WaitingSandbox => {
  const { prepared } = options;
  const opened: number[] = [];
  const release = (): void => {
    for (const fd of opened) closeSync(fd);
    prepared.close();
  };
  try {
    opened.push(options.filterFd(), openWordFile(options.dir));
    const [filter, word] = opened as [number, number];
    return waitingSandbox({
      launcher: options.launcher,
      fds: [filter, ...prepared.extra, word],
      wordFd: word,
      ...options.shape(prepared),
      release,
    });
  } catch (error) {
    release();
    throw error;
  }
};
