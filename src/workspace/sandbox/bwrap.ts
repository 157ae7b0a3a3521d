import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Mount } from './mounts.ts';

let maskDir: string | undefined;
const masks = new Map<string, string>();

/**
 * A regular file of regreen's, read-only, empty unless a mask says what it holds (Maven's
 * `<settings/>`): what a masked file reads as.
 * Not /dev/null: bubblewrap's binds are `nodev`, so a device bound over a file
 * answers "Permission denied" — and a tool that reads system config without
 * regreen's variables (setuptools-scm's git, say) then fails where CI's did
 * not. Masked means empty.
 */
const emptyFile = (content = ''): string => {
  if (maskDir === undefined) {
    const dir = mkdtempSync(path.join(tmpdir(), 'regreen-mask-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    maskDir = dir;
  }
  let file = masks.get(content);
  if (file === undefined) {
    file = path.join(maskDir, `mask-${masks.size}`);
    writeFileSync(file, content, { flag: 'wx' });
    chmodSync(file, 0o444);
    masks.set(content, file);
  }
  return file;
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
 * - when regreen runs as root, `--userns FD` joins the namespace of
 *   `identity.ts` (1000 inside is an unprivileged uid outside) and
 *   `setpriv` drops to uid and gid 1000 with no group and no capability
 *   before the command: it is never root on the host, and cannot raise its
 *   resource limits.
 * - every folder bubblewrap makes on the way to a mount point is 0755 (it
 *   would make them 0700, the namespace root's), so the command reaches its
 *   mounts without owning them.
 */

export interface BwrapPlan {
  readonly bwrap: string;
  /** Mounts in order: later ones cover earlier ones. */
  readonly mounts: readonly Mount[];
  readonly cwd: string;
  readonly seccompFd: number;
  /** When regreen runs as root: the namespace to join and the drop to the command's uid. */
  readonly identity:
    { readonly usernsFd: number; readonly setpriv: string; readonly insideId: number } | undefined;
  /**
   * The program and its arguments: regreen's first shell, which is given the
   * command's environment as arguments and hands it to `env -i` only at the
   * command's own start (no shell of regreen's ever has it).
   */
  readonly argv: readonly string[];
  /**
   * A sandbox made before its command (`waiting-sandbox.ts`): its first process
   * waits for a byte on stdin, then reads the command's folder, command and
   * environment from the file at this descriptor (`argv` has none of them),
   * and starts `argv` with the command, its folder and its variables after it.
   */
  readonly waitFor?: { readonly wordFd: number };
}

const mountArgs = (mount: Mount): string[] => {
  switch (mount.kind) {
    case 'ro':
      return ['--ro-bind', mount.source, mount.target];
    case 'rw':
      return ['--bind', mount.source, mount.target];
    case 'ro-fd':
      return ['--ro-bind-fd', mount.source, mount.target];
    case 'rw-fd':
      return ['--bind-fd', mount.source, mount.target];
    case 'symlink':
      return ['--symlink', mount.source, mount.target];
    case 'mask-file':
      return ['--ro-bind', emptyFile(mount.content), mount.target];
    case 'mask-dir':
      return ['--tmpfs', mount.target, '--remount-ro', mount.target];
    case 'dev':
      return ['--dev', mount.target];
    case 'proc':
      return ['--proc', mount.target];
    case 'tmpfs':
      return [
        ...(mount.sizeBytes === undefined ? [] : ['--size', String(mount.sizeBytes)]),
        // Everyone's and sticky, as /tmp is: its owner is the namespace's root, not the command.
        '--perms',
        '1777',
        '--tmpfs',
        mount.target,
      ];
  }
};

/** `setpriv` to uid and gid 1000 with no group and no capability in any set, up to its `--`. */
const drop = (id: NonNullable<BwrapPlan['identity']>): string =>
  `${id.setpriv} --reuid=${id.insideId} --regid=${id.insideId} --clear-groups --bounding-set=-all --inh-caps=-all --ambient-caps=-all --`;

/**
 * As root, the namespace's PID 1 is a shell of regreen's that stays the
 * namespace's root (so `--die-with-parent`'s signal, which a change of uid
 * clears, still ends the sandbox with bubblewrap) and runs the command under
 * `setpriv`: uid and gid 1000 (unprivileged on the host), no groups, no
 * capability in any set. PID 1 itself reads nothing the sandbox can write: no
 * startup file (`--norc --noprofile`; bash would read `~/.bashrc` with a socket
 * on stdin), no environment (bubblewrap clears it: `BASH_ENV`, `LD_PRELOAD` and
 * the like never reach it); the command's environment is the first shell's
 * arguments, handed to `env -i` at the command's own start (`commandScript`).
 * It holds only the capabilities the drop needs.
 * The command can neither signal nor trace it (another uid), and it runs under
 * the seccomp filter like everything else.
 */
const dropToCommand = (id: NonNullable<BwrapPlan['identity']>): string[] => [
  '/bin/bash',
  '--norc',
  '--noprofile',
  '-c',
  [`exec ${id.usernsFd}<&-`, `${drop(id)} "$@"`, 'exit $?'].join('; '),
  'regreen-init',
];

/**
 * The first process of a waiting sandbox: it reads nothing but a byte of
 * regreen's on stdin and the word regreen wrote to a file of its own (closed
 * before anything else runs), then goes on as `dropToCommand` (as root) or
 * as the command's first process: the command's environment reaches `env -i`
 * as arguments, never PID 1.
 */
const waitingFirst = (plan: BwrapPlan, wordFd: number): string[] => {
  const id = plan.identity;
  const start = '"$@" "${w[1]}" "${w[0]}" "${w[@]:2}"';
  return [
    '/bin/bash',
    '--norc',
    '--noprofile',
    '-c',
    [
      'read -r -n 1 go || exit 0',
      `mapfile -d '' -u ${wordFd} w || exit 125`,
      `exec ${wordFd}<&-`,
      ...(id ? [`exec ${id.usernsFd}<&-`, `${drop(id)} ${start}`, 'exit $?'] : [`exec ${start}`]),
    ].join('\n'),
    'regreen-init',
  ];
};

/** What PID 1 may hold as root: enough to drop to the command's uid, nothing more. */
const INIT_CAPS = ['CAP_SETUID', 'CAP_SETGID', 'CAP_SETPCAP'];

/** What the host process that starts bubblewrap gets as its environment: nothing of the command's. */
export const LAUNCHER_ENV: Readonly<Record<string, string>> = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
};

/**
 * The argv that closes every descriptor above `highestKept` before it execs
 * `argv`: descriptors regreen itself inherited (from whatever started it,
 * without close-on-exec) would otherwise reach the command, and bubblewrap
 * closes none. First it runs `enter` (a cgroup's: the shell joins it, so what
 * it execs starts inside). A shell of regreen's with no startup file, run with
 * `LAUNCHER_ENV`: one process, where a shell for each was two.
 */
export const closingInheritedFds = (
  argv: readonly string[],
  highestKept: number,
  enter?: string,
): string[] => [
  '/bin/bash',
  '--norc',
  '--noprofile',
  '-c',
  `${enter ? `${enter}; ` : ''}for fd in /proc/$$/fd/*; do n=\${fd##*/}; if [ "$n" -gt ${highestKept} ] 2>/dev/null; then eval "exec $n>&-" 2>/dev/null; fi; done; exec "$@"`,
  'regreen-fds',
  ...argv,
];

const isBind = (mount: Mount): boolean =>
  mount.kind === 'ro' || mount.kind === 'rw' || mount.kind === 'ro-fd' || mount.kind === 'rw-fd';

/**
 * The mounts, each after `--perms 0755 --dir` for the folders on its way that
 * no earlier bind provides (a bind brings the host's own folders and modes).
 */
const mountsWithParents = (mounts: readonly Mount[]): string[] => {
  const made = new Set<string>(['/']);
  const args: string[] = [];
  const bound: string[] = [];
  for (const mount of mounts) {
    const parents: string[] = [];
    for (let dir = path.dirname(mount.target); !made.has(dir); dir = path.dirname(dir))
      parents.unshift(dir);
    for (const dir of parents) {
      made.add(dir);
      if (bound.some((top) => dir === top || dir.startsWith(`${top}/`))) continue;
      args.push('--perms', '0755', '--dir', dir);
    }
    args.push(...mountArgs(mount));
    made.add(mount.target);
    if (isBind(mount)) bound.push(mount.target);
  }
  return args;
};

export const bwrapArgv = (plan: BwrapPlan): string[] => {
  if (!path.isAbsolute(plan.cwd)) throw new Error(`the sandbox cwd must be absolute: ${plan.cwd}`);
  const id = plan.identity;
  return [
    plan.bwrap,
    '--new-session',
    '--die-with-parent',
    // The command's environment is neither bubblewrap's (a declared LD_PRELOAD would load into
    // it, on the host) nor any shell's of regreen's (`BASH_ENV`, a `BASH_FUNC_ulimit%%` would run
    // before the limits): the command's first shell gets it as arguments, for `env -i`.
    '--clearenv',
    ...(id
      ? [
          '--userns',
          String(id.usernsFd),
          '--cap-drop',
          'ALL',
          ...INIT_CAPS.flatMap((cap) => ['--cap-add', cap]),
        ]
      : []),
    ...(id ? [] : ['--unshare-user']),
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--hostname',
    'regreen-sandbox',
    ...mountsWithParents(plan.mounts),
    '--chdir',
    plan.cwd,
    '--as-pid-1',
    '--seccomp',
    String(plan.seccompFd),
    '--',
    ...(plan.waitFor ? waitingFirst(plan, plan.waitFor.wordFd) : id ? dropToCommand(id) : []),
    ...plan.argv,
  ];
};
