import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Mount } from './sandbox-mounts.ts';

let empty: string | undefined;

/**
 * An empty regular file of regreen's, read-only: what a masked file reads as.
 * Not /dev/null: bubblewrap's binds are `nodev`, so a device bound over a file
 * answers "Permission denied" — and a tool that reads system config without
 * regreen's variables (setuptools-scm's git, say) then fails where CI's did
 * not. Masked means empty.
 */
const emptyFile = (): string => {
  if (empty === undefined) {
    const dir = mkdtempSync(path.join(tmpdir(), 'regreen-mask-'));
    const file = path.join(dir, 'empty');
    writeFileSync(file, '', { flag: 'wx' });
    chmodSync(file, 0o444);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    empty = file;
  }
  return empty;
};

/**
 * The bubblewrap command line of one sandboxed command, built by regreen from
 * an explicit plan: nothing of the host is visible but the mounts listed, and
 * every process in the sandbox runs under regreen's seccomp filter.
 *
 * - `--unshare-user --unshare-pid --unshare-net --unshare-ipc --unshare-uts`:
 *   its own namespaces; the network has only a loopback device.
 * - `--as-pid-1` with `--seccomp FD`: bubblewrap applies the filter before it
 *   execs the command as the namespace's PID 1, so there is no reaper or helper
 *   process without the filter for the command to ptrace or write into; when
 *   the command's PID 1 ends, the kernel kills everything left in the
 *   namespace (nothing outlives the command).
 * - `--new-session` (no terminal to inject keystrokes into),
 *   `--die-with-parent` (regreen's death ends it).
 * - `--uid`/`--gid` when regreen runs as root: the command's uid is never 0
 *   and it holds no capability, so its resource limits cannot be raised.
 */

export interface BwrapPlan {
  readonly bwrap: string;
  /** Mounts in order: later ones cover earlier ones. */
  readonly mounts: readonly Mount[];
  readonly cwd: string;
  readonly seccompFd: number;
  /** A non-zero uid and gid for the command when the host's is 0. */
  readonly identity: { readonly uid: number; readonly gid: number } | undefined;
  /** The program and its arguments. */
  readonly argv: readonly string[];
}

const mountArgs = (mount: Mount): string[] => {
  switch (mount.kind) {
    case 'ro':
      return ['--ro-bind', mount.source, mount.target];
    case 'rw':
      return ['--bind', mount.source, mount.target];
    case 'symlink':
      return ['--symlink', mount.source, mount.target];
    case 'mask-file':
      return ['--ro-bind', emptyFile(), mount.target];
    case 'mask-dir':
      return ['--tmpfs', mount.target, '--remount-ro', mount.target];
    case 'dev':
      return ['--dev', mount.target];
    case 'proc':
      return ['--proc', mount.target];
    case 'tmpfs':
      return [
        ...(mount.sizeBytes === undefined ? [] : ['--size', String(mount.sizeBytes)]),
        '--tmpfs',
        mount.target,
      ];
  }
};

export const bwrapArgv = (plan: BwrapPlan): string[] => {
  if (!path.isAbsolute(plan.cwd)) throw new Error(`the sandbox cwd must be absolute: ${plan.cwd}`);
  return [
    plan.bwrap,
    '--new-session',
    '--die-with-parent',
    '--unshare-user',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--hostname',
    'regreen-sandbox',
    ...(plan.identity
      ? ['--uid', String(plan.identity.uid), '--gid', String(plan.identity.gid)]
      : []),
    ...plan.mounts.flatMap(mountArgs),
    '--chdir',
    plan.cwd,
    '--as-pid-1',
    '--seccomp',
    String(plan.seccompFd),
    '--',
    ...plan.argv,
  ];
};
