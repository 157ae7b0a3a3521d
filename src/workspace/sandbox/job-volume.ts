import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmdirSync,
  statfsSync,
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
 * When the job ends the image is unmounted and removed, the trees with it
 * (what the job changed is written beside its trace first); one a regreen
 * that died left behind is released by the next job and removed by
 * `regreen jobs prune`.
 */
export interface JobVolume {
  /** Where the trees live: the mounted filesystem's root. */
  readonly root: string;
  readonly sizeMb: number;
  /** Detaches it from the mount table and deletes its image; the kernel frees it when nothing holds it. */
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

/** What this process's mounted volumes may still grow to, together. */
let liveMb = 0;

const freeBytes = (dir: string): number => {
  const stats = statfsSync(dir);
  return Number(stats.bavail) * Number(stats.bsize);
};

const mountPoints = (): string[] =>
  readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .filter(Boolean);

/** This process as the owner of a volume: its pid and when it started (a reused pid is another process). */
const OWNER_FILE = 'volume.owner';
const startOf = (pid: number): string | undefined => {
  try {
    // The 22nd field of /proc/PID/stat, after the command's parenthesised name.
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19];
  } catch {
    return undefined;
  }
};

/** The loop-mounted ext4 filesystems mounted at a folder named `volume`: where a job volume may be. */
const loopVolumes = (): string[] =>
  readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .filter((fields) => {
      const after = fields.indexOf('-');
      return (
        path.basename(fields[4] ?? '') === 'volume' &&
        fields[after + 1] === 'ext4' &&
        (fields[after + 2] ?? '').startsWith('/dev/loop')
      );
    })
    .map((fields) => fields[4] ?? '');

/**
 * Releases every job volume whose regreen is gone (killed before it could
 * unmount it, in a job or an eval's judging run): the next job or judging
 * run on this host finds them. A volume is regreen's when its folder's
 * `volume.owner` names a process; it is released when that process (pid
 * and start time) no longer runs.
 */
export const releaseOrphanVolumes = (): string[] => {
  const released: string[] = [];
  for (const point of loopVolumes()) {
    let owner: { pid?: unknown; start?: unknown } = {};
    try {
      owner = JSON.parse(
        readFileSync(path.join(path.dirname(point), OWNER_FILE), 'utf8'),
      ) as typeof owner;
    } catch {
      // no owner recorded: not one of ours to judge
      continue;
    }
    if (typeof owner.pid !== 'number' || typeof owner.start !== 'string') continue;
    if (startOf(owner.pid) !== owner.start && releaseVolume(point)) released.push(point);
  }
  return released;
};

/** Unmounts a job's volume a process that died left mounted (`jobs prune`); false when none was. */
export const releaseVolume = (root: string): boolean => {
  if (!mountPoints().includes(root)) return false;
  execFileSync('umount', ['-l', root], {
    env: { PATH: SYSTEM_PATH, LC_ALL: 'C' },
    stdio: 'ignore',
  });
  return true;
};

/**
 * A process whose working folder is `root` (it keeps the mounted file system
 * in use), started and not waited for; undefined when it cannot start.
 */
const holdMount = (root: string): Promise<ChildProcess | undefined> =>
  new Promise((resolve) => {
    const keeper = spawn('sleep', ['60'], {
      cwd: root,
      detached: true,
      stdio: 'ignore',
      env: { PATH: SYSTEM_PATH, LC_ALL: 'C' },
    });
    keeper.unref();
    keeper.once('spawn', () => resolve(keeper));
    keeper.once('error', () => resolve(undefined));
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
  mkdirSync(options.dir, { recursive: true });
  // The loop device writes as root, past the reserve that keeps a host usable: a volume is made
  // only when what an unprivileged user may still write holds it and every live volume here.
  const free = freeBytes(options.dir);
  const wanted = (sizeMb + liveMb) * 1024 * 1024;
  if (free < wanted)
    return {
      unavailable: `the data dir's filesystem has ${Math.floor(free / 1024 / 1024)} MiB free for users, less than this job's ${sizeMb} MiB and the ${liveMb} MiB of the volumes in use`,
    };
  const image = path.join(options.dir, 'volume.img');
  const root = path.join(options.dir, 'volume');
  try {
    // Sparse: the file takes only what is written into it.
    const fd = openSync(image, 'wx', 0o600);
    try {
      ftruncateSync(fd, sizeMb * 1024 * 1024);
    } finally {
      closeSync(fd);
    }
    // No journal and no reserved blocks: a job's scratch space, all of it the job's. The
    // inode tables of a sparse image read as zeros already: neither mkfs (lazy_itable_init) nor
    // the kernel (noinit_itable) need write them, which would fill the image with a quarter GiB
    // of zeros per 8 GiB. Nothing to discard in a new sparse file, and a volume never grows (no
    // blocks kept for resizing): mkfs then writes only the superblocks and bitmaps.
    await run('mkfs.ext4', [
      '-q',
      '-F',
      '-m',
      '0',
      '-i',
      '8192',
      '-O',
      '^has_journal,^resize_inode',
      '-E',
      'lazy_itable_init=1,nodiscard',
      image,
    ]);
    mkdirSync(root, { mode: 0o755 });
    await run('mount', ['-o', 'loop,nosuid,nodev,noinit_itable,discard', image, root]);
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
  writeFileSync(
    path.join(options.dir, OWNER_FILE),
    JSON.stringify({ pid: process.pid, start: startOf(process.pid) }),
  );
  let mounted = true;
  liveMb += sizeMb;
  return {
    volume: {
      root,
      sizeMb,
      dispose: async () => {
        if (!mounted) return;
        mounted = false;
        liveMb -= sizeMb;
        // Released already (by `jobs prune`, or taken for another's orphan): nothing to undo.
        if (!mountPoints().includes(root)) return;
        // Detached from the mount table at once; the file system's last release (writing back what
        // the job's commands left dirty, tens of milliseconds for a few clones, all of it for an
        // image deleted next) is left to a process of the job's that still holds a file there, else
        // to a keeper that holds the root while the detach happens and is ended right after: its
        // exit, not this process, then does that work.
        const keeper = await holdMount(root);
        try {
          await run('umount', ['-l', root]);
        } finally {
          keeper?.kill('SIGKILL');
        }
        // The trees go with it: what the job changed is in its folder (`change.diff`) already, and
        // nothing mounts an image again. Its blocks are freed at once (a lazily detached mount
        // frees them when its last user leaves), not kept until `regreen jobs prune`.
        rmSync(image, { force: true });
        try {
          rmdirSync(root);
        } catch {
          // still busy (a lazy detach): left for `jobs prune`
        }
      },
    },
  };
};

let answered: { readonly why: string | undefined } | undefined;

/**
 * Why a job of these settings would get no volume here (undefined: it would):
 * the operator's switch, the host (`volumeUnavailable`), then the room the
 * data dir's filesystem has for one of the limit's size — what `doctor` says.
 */
export const volumeUnavailableFor = (options: {
  readonly mode?: 'auto' | 'off';
  readonly sizeMb: number;
  readonly dir: string;
}): string | undefined => {
  if (options.mode === 'off') return 'REGREEN_JOB_VOLUME=off';
  const host = volumeUnavailable();
  if (host) return host;
  const sizeMb = Math.max(MIN_MB, options.sizeMb);
  let dir = options.dir;
  while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  const free = freeBytes(dir);
  return free < sizeMb * 1024 * 1024
    ? `the data dir's filesystem (${dir}) has ${Math.floor(free / 1024 / 1024)} MiB free for users, less than a job's ${sizeMb} MiB (REGREEN_MAX_DISK_MB)`
    : undefined;
};

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
