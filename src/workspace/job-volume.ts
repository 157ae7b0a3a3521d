import { execFile, execFileSync } from 'node:child_process';
import {
  closeSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A job's trees (workspace, each sandbox's tmp and home, the fresh trees) on
 * a filesystem of their own whose size is the disk limit: a sparse ext4
 * image, loop-mounted. The kernel refuses the write that would pass the
 * limit (ENOSPC), whatever wrote it, however fast — `fallocate`, a
 * kernel's cell, a language server — where the per-command watch only
 * notices after the fact. It needs root and a loop device; where the host
 * has neither, the caller says so (the watch stays, and `doctor` and the
 * trace name the gap).
 *
 * The image stays in the job's folder when the job ends, unmounted (sparse:
 * it takes what was written); `regreen jobs prune` removes it.
 */
export interface JobVolume {
  /** Where the trees live: the mounted filesystem's root. */
  readonly root: string;
  readonly sizeMb: number;
  /** Unmounts it (lazily when something still holds it). */
  dispose(): Promise<void>;
}

export type VolumeAnswer = { readonly volume: JobVolume } | { readonly unavailable: string };

/** Programs run by absolute path from the system's folders, never the job's PATH. */
const SYSTEM_PATH = '/usr/sbin:/usr/bin:/sbin:/bin';

const run = (file: string, args: readonly string[], timeoutMs = 60_000): Promise<void> =>
  new Promise((resolve, reject) => {
    execFile(
      file,
      [...args],
      { timeout: timeoutMs, env: { PATH: SYSTEM_PATH, LC_ALL: 'C' }, encoding: 'utf8' },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        const why = stderr.trim().split('\n').at(-1) ?? '';
        reject(new Error(`${path.basename(file)}: ${why || error.message}`));
      },
    ).stdin?.end();
  });

/** The smallest volume that still holds an empty ext4 filesystem and a small clone. */
const MIN_MB = 16;

/**
 * Makes and mounts the job's volume under `dir` (`volume.img`, mounted at
 * `volume/`). `mode` is the operator's `REGREEN_JOB_VOLUME`: `off` keeps
 * the trees on the data dir's filesystem.
 */
export const openJobVolume = async (options: {
  readonly dir: string;
  readonly sizeMb: number;
  readonly mode?: 'auto' | 'off';
  readonly isRoot?: boolean;
}): Promise<VolumeAnswer> => {
  if (options.mode === 'off') return { unavailable: 'REGREEN_JOB_VOLUME=off' };
  if (!(options.isRoot ?? process.geteuid?.() === 0))
    return { unavailable: 'regreen is not root, so it cannot mount a size-bounded volume' };
  const sizeMb = Math.max(MIN_MB, options.sizeMb);
  const image = path.join(options.dir, 'volume.img');
  const root = path.join(options.dir, 'volume');
  mkdirSync(options.dir, { recursive: true });
  try {
    // Sparse: the file takes only what is written into it.
    const fd = openSync(image, 'wx', 0o600);
    try {
      ftruncateSync(fd, sizeMb * 1024 * 1024);
    } finally {
      closeSync(fd);
    }
    // No journal and no reserved blocks: a job's scratch space, all of it the job's. The
    // inode tables of a sparse image read as zeros already: the kernel need not write them
    // (noinit_itable), which would fill the image with a quarter GiB of zeros per 8 GiB.
    await run('mkfs.ext4', ['-q', '-F', '-m', '0', '-i', '8192', '-O', '^has_journal', image]);
    mkdirSync(root, { mode: 0o755 });
    await run('mount', ['-o', 'loop,nosuid,nodev,noinit_itable', image, root]);
  } catch (error) {
    // Nothing of the attempt stays: the trees go where they would have gone without it.
    rmSync(image, { force: true });
    try {
      rmdirSync(root);
    } catch {
      // never made, or (a mount that half happened) not empty: left for `jobs prune`
    }
    return {
      unavailable: `no size-bounded volume here (${(error as Error).message}): a loop device and root are needed`,
    };
  }
  // mkfs's lost+found would be one more folder in every listing of the trees' parent.
  rmdirSync(path.join(root, 'lost+found'));
  let mounted = true;
  return {
    volume: {
      root,
      sizeMb,
      dispose: async () => {
        if (!mounted) return;
        mounted = false;
        try {
          await run('umount', [root]);
        } catch {
          // A process of the job still holds a file there: detach it now, the kernel frees it after.
          await run('umount', ['-l', root]);
        }
      },
    },
  };
};

let answered: { readonly why: string | undefined } | undefined;

/**
 * Why this host cannot give a job a volume (undefined: it can), found by
 * making a small one and removing it, once per process: `doctor` asks it.
 */
export const volumeUnavailable = (): string | undefined => {
  if (answered) return answered.why;
  let why: string | undefined;
  if (process.geteuid?.() !== 0)
    why = 'regreen is not root, so it cannot mount a size-bounded volume';
  else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'regreen-volume-probe-'));
    const image = path.join(dir, 'probe.img');
    const root = path.join(dir, 'mnt');
    const options = {
      env: { PATH: SYSTEM_PATH, LC_ALL: 'C' },
      timeout: 30_000,
      stdio: 'pipe',
    } as const;
    try {
      writeFileSync(image, '');
      truncateSync(image, MIN_MB * 1024 * 1024);
      mkdirSync(root);
      execFileSync('mkfs.ext4', ['-q', '-F', '-O', '^has_journal', image], options);
      execFileSync('mount', ['-o', 'loop,nosuid,nodev,noinit_itable', image, root], options);
      execFileSync('umount', [root], options);
    } catch (error) {
      const output = (error as { stderr?: Buffer | string }).stderr;
      const stderr = (
        typeof output === 'string' ? output : (output?.toString('utf8') ?? '')
      ).trim();
      why = `no size-bounded volume here (${stderr.split('\n').at(-1) || (error as Error).message}): a loop device and root are needed`;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  answered = { why };
  return why;
};
