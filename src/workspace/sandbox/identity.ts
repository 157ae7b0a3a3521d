import { execFile, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, statSync, writeFileSync } from 'node:fs';
import { RegreenError } from '../../errors.ts';

/**
 * Who a sandboxed command is on the host when regreen runs as root: never
 * root. Inside, the command is uid 1000; on the host that uid is an
 * unprivileged one of regreen's (`REGREEN_SANDBOX_UID`, 64000 by default),
 * so the host's own permissions apply to it (a 0600 root file, a root unix
 * socket, RLIMIT_NPROC) by construction, whatever regreen's lists forget.
 *
 * How: regreen (root) makes one user namespace whose map is `0 → 0` and
 * `1000 → U`, and hands it to bubblewrap (`--userns FD`). bubblewrap sets the
 * sandbox up as the namespace's root (so toolchains under a 0700 `/root` can
 * still be bound read-only), then `setpriv` (util-linux) becomes uid and gid
 * 1000, clears the groups and every capability (bounding, inheritable,
 * ambient) and execs the command. The seccomp filter is already in place and
 * `no_new_privs` is set, so nothing in the sandbox can become the namespace's
 * root again.
 *
 * What follows from it: the folders the command writes (the workspace, its
 * tmp and home) are the sandbox's on the host — `handOver` gives it whatever
 * the host made there as root, just before each command — and host git is
 * told those repositories are safe (`safe.directory`, `SAFE_GIT_CONFIG`).
 */

/** The command's uid and gid inside the sandbox. */
export const INSIDE_ID = 1000;
export const DEFAULT_SANDBOX_UID = 64_000;
/** Files the judging runs hold still belong to nobody: the sandbox's uid must differ. */
export const NOBODY = 65_534;

export interface HostIdentity {
  /** The host uid (and gid) of the command. */
  readonly uid: number;
  /** An open descriptor of the user namespace bubblewrap joins. */
  readonly usernsFd: number;
  /** util-linux's setpriv, which drops to the command's identity inside. */
  readonly setpriv: string;
}

/** The host uid the operator chose for sandboxed commands, checked: never 0 or nobody. */
export const sandboxUidOf = (value: string | undefined): number => {
  if (value === undefined || value.trim() === '') return DEFAULT_SANDBOX_UID;
  const uid = Number(value.trim());
  if (!Number.isInteger(uid) || uid <= 0 || uid === NOBODY || uid >= 4_294_967_295) {
    throw new RegreenError(
      'usage',
      `REGREEN_SANDBOX_UID must be a host uid other than 0 and ${NOBODY} (nobody), not ${JSON.stringify(value)}`,
    );
  }
  return uid;
};

/** Writes a map in one write(2), as the kernel requires. */
const writeMap = (file: string, text: string): void => {
  writeFileSync(file, text, { flag: 'r+' });
};

/**
 * Makes the user namespace: `unshare --user` starts a process in a new one and
 * says so; root writes its maps; its `ns/user` is kept open and the process ends.
 */
const makeUserNamespace = async (uid: number): Promise<number> => {
  const child = spawn('unshare', ['--user', '/bin/sh', '-c', 'echo ready; exec sleep 600'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
      child.stdout.once('data', () => resolve());
      child.once('error', reject);
      child.once('exit', (code) =>
        reject(new Error(`unshare --user exited ${code ?? 'on a signal'}: ${errors.trim()}`)),
      );
    });
    const pid = child.pid as number;
    writeMap(`/proc/${pid}/uid_map`, `0 0 1\n${INSIDE_ID} ${uid} 1\n`);
    writeMap(`/proc/${pid}/gid_map`, `0 0 1\n${INSIDE_ID} ${uid} 1\n`);
    return openSync(`/proc/${pid}/ns/user`, 'r');
  } finally {
    child.kill('SIGKILL');
  }
};

let made: Promise<HostIdentity> | undefined;

/**
 * The identity of sandboxed commands for this process, made once: undefined
 * unless regreen runs as root. Fails closed (the sandbox does not start) when
 * it cannot be made, saying why.
 */
export const hostIdentity = (options: {
  readonly isRoot: boolean;
  readonly uidSetting: string | undefined;
  readonly which: (name: string) => string | undefined;
}): Promise<HostIdentity> | undefined => {
  if (!options.isRoot) return undefined;
  made ??= (async () => {
    const uid = sandboxUidOf(options.uidSetting);
    const setpriv = options.which('setpriv');
    const unshare = options.which('unshare');
    if (!setpriv || !unshare) {
      throw new RegreenError(
        'sandbox-unavailable',
        `regreen runs as root, and its sandbox then runs commands as host uid ${uid}, which needs util-linux's setpriv and unshare (not found). On Debian/Ubuntu: apt-get install -y util-linux`,
      );
    }
    try {
      return { uid, usernsFd: await makeUserNamespace(uid), setpriv };
    } catch (error) {
      throw new RegreenError(
        'sandbox-unavailable',
        `regreen runs as root and could not make the user namespace that runs sandboxed commands as host uid ${uid}: ${(error as Error).message}`,
      );
    }
  })();
  made.catch(() => (made = undefined));
  return made;
};

/** Ends this process's identity (tests). */
export const forgetHostIdentity = async (): Promise<void> => {
  const identity = await made?.catch(() => undefined);
  made = undefined;
  if (identity) closeSync(identity.usernsFd);
};

/**
 * Gives the sandbox's uid whatever root made in the folders it writes: only
 * what root owns changes hands (the judging runs' nobody-owned files stay
 * nobody's), links are changed themselves and never followed, and GNU
 * chown's traversal opens each folder relative to its parent without
 * following links, so a process of the sandbox racing it cannot lead it out.
 */
export const handOver = (dirs: readonly string[], uid: number): void => {
  if (dirs.length === 0) return;
  const [file, ...args] = handOverArgv(dirs, uid);
  execFileSync(file as string, args, { stdio: ['ignore', 'ignore', 'pipe'] });
};

/** `handOver` without holding regreen's main thread while chown walks the folders. */
export const handOverAsync = (dirs: readonly string[], uid: number): Promise<void> =>
  new Promise((resolve, reject) => {
    if (dirs.length === 0) return resolve();
    const [file, ...args] = handOverArgv(dirs, uid);
    execFile(file as string, args, (error, _stdout, stderr) =>
      error ? reject(new Error(`${stderr}`.trim() || error.message)) : resolve(),
    );
  });

/** `handOver` as a command line, for a launcher of regreen's to run just before a command. */
export const handOverArgv = (dirs: readonly string[], uid: number): string[] => [
  'chown',
  '-R',
  '-P',
  '--from=0',
  `${uid}:${uid}`,
  '--',
  ...dirs,
];

/**
 * Gives back, after a command run on a folder of the person's (`sandbox run`,
 * `tools call`), what the sandbox's uid owns there: to the folder's owner as it
 * was before the first command (what `handOver` took was that owner's root-owned
 * files; what the command made is theirs too). Links are changed themselves,
 * never followed.
 */
export const giveBack = (dir: string, uid: number, owner: { uid: number; gid: number }): void => {
  execFileSync('chown', ['-R', '-P', `--from=${uid}`, `${owner.uid}:${owner.gid}`, '--', dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
};

/**
 * The read-only roots regreen shares with the sandbox (toolchains, the
 * operator's dependency caches) that the sandbox's uid cannot read: the host's
 * permissions apply to it, so a root folder of mode 0750 is closed to it. Said
 * in the job's trace and by `doctor`, never silently missing.
 */
export const closedToSandbox = (roots: readonly string[], uid: number): string[] =>
  roots.filter((root) => {
    let stats;
    try {
      stats = statSync(root);
    } catch {
      return false;
    }
    if (stats.uid === uid) return false;
    const need = stats.isDirectory() ? 0o005 : 0o004;
    return (stats.mode & need) !== need;
  });

/** The trace's line for the shared roots the sandbox's uid cannot read, or undefined. */
export const closedRootsNote = (roots: readonly string[], uid: number): string | undefined => {
  const closed = closedToSandbox(roots, uid);
  return closed.length === 0
    ? undefined
    : `shared read-only with the sandbox, but closed to its host uid ${uid} by their permissions: ${closed.join(', ')} — to share one, let others read it (chmod -R o+rX <dir>)`;
};
