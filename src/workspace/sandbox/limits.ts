import { execFile } from 'node:child_process';
import { statfsSync } from 'node:fs';
import type { CommandLimits } from './sandbox.ts';

/**
 * Resource limits of one sandboxed command. The hard limits are set by the
 * sandbox's first process before the command starts; the command runs with
 * no capability, so it cannot raise them. RLIMIT_NPROC counts the processes
 * of the sandbox's own user namespace (its uid there is never 0), so a fork
 * bomb stops at the limit whatever else the host runs.
 */
export const limitLines = (limits: CommandLimits): string =>
  [
    'ulimit -c 0',
    `ulimit -u ${limits.processes}`,
    `ulimit -d ${limits.memoryMb * 1024}`,
    `ulimit -f ${limits.diskMb * 1024}`,
  ].join(' && ');

/** What the output or the exit says about a limit the command ran into. */
export const limitReached = (
  result: { exitCode: number | null; output: string },
  limits: CommandLimits,
  diskExceeded: boolean,
): string | undefined => {
  if (diskExceeded)
    return `it wrote more than ${limits.diskMb} MiB (the sandbox's disk limit, REGREEN_MAX_DISK_MB) and was stopped`;
  const tail = result.output.slice(-64 * 1024);
  if (result.exitCode === 128 + 25 || /File size limit exceeded/.test(tail))
    return `a file it wrote reached ${limits.diskMb} MiB (the sandbox's file size limit, REGREEN_MAX_DISK_MB)`;
  if (
    /fork: (retry: )?Resource temporarily unavailable|Cannot fork|can't start new thread|unable to create (native|new native) thread|pthread_create( failed)?:? Resource temporarily unavailable|spawn EAGAIN/i.test(
      tail,
    )
  )
    return `it reached the sandbox's limit of ${limits.processes} processes (REGREEN_MAX_PROCESSES)`;
  if (
    /Cannot allocate memory|MemoryError|JavaScript heap out of memory|std::bad_alloc|out of memory|ENOMEM/i.test(
      tail,
    )
  )
    return `it may have reached the sandbox's memory limit of ${limits.memoryMb} MiB per process (REGREEN_MAX_MEMORY_MB)`;
  return undefined;
};

const diskUse = (dirs: readonly string[]): Promise<number | undefined> =>
  new Promise((resolve) => {
    execFile(
      'du',
      ['-s', '-c', '-B1', '-x', '--', ...dirs],
      { maxBuffer: 1024 * 1024, timeout: 60_000 },
      (_error, stdout) => {
        const total = /(?<!\d)(\d+)\s+total\s*$/.exec(stdout.trim())?.[1];
        resolve(total === undefined ? undefined : Number(total));
      },
    );
  });

/**
 * Whether the kernel already bounds what can be written under `dir` to
 * `limitBytes`: the filesystem it is on is no bigger than that (the job's
 * own volume, a size-limited tmpfs). Unknown is unbounded.
 */
export const boundedByFilesystem = (dir: string, limitBytes: number): boolean => {
  try {
    const fs = statfsSync(dir);
    return fs.blocks * fs.bsize <= limitBytes;
  } catch {
    return false;
  }
};

/**
 * Watches what a command writes to its folders (workspace, tmp, home) while
 * it runs and calls `onExceeded` once their growth passes the limit. A folder
 * on a filesystem no bigger than the limit is not watched: the kernel refuses
 * the write that would pass it. With none left, nothing is polled.
 */
export const watchDisk = async (options: {
  dirs: readonly string[];
  limitBytes: number;
  intervalMs?: number;
  onExceeded: () => void;
}): Promise<{ stop(): void; readonly exceeded: boolean }> => {
  const dirs = options.dirs.filter((dir) => !boundedByFilesystem(dir, options.limitBytes));
  if (dirs.length === 0) return { stop: () => undefined, exceeded: false };
  const baseline = (await diskUse(dirs)) ?? 0;
  let exceeded = false;
  let stopped = false;
  let busy = false;
  const timer = setInterval(() => {
    if (busy || stopped) return;
    busy = true;
    void diskUse(dirs).then((used) => {
      busy = false;
      if (stopped || used === undefined || exceeded) return;
      if (used - baseline > options.limitBytes) {
        exceeded = true;
        options.onExceeded();
      }
    });
  }, options.intervalMs ?? 2000);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
    get exceeded() {
      return exceeded;
    },
  };
};
