/**
 * What one bubblewrap command sees, as data: its mounts, the proxy's
 * variables in setup, and the script its first process runs before the
 * command. Pure: `bubblewrap.ts` builds the sandbox from these in steps.
 */
import { limitLines } from './limits.ts';
import { etcMounts, forgetEtcMasks, isAncestorOrSame, systemMounts, type Mount } from './mounts.ts';
import { lstatSync } from 'node:fs';
import { clientConfigMounts } from './client-configs.ts';
import { secretMasks } from './secret-masks.ts';
import type { SandboxPolicy } from './sandbox.ts';
import { quote } from '../../util/text.ts';
import type { SetupProxy } from './setup-proxy.ts';
import { PROXY_PORT } from './registry-aliases.ts';

/** Where the setup proxy's socket is bound inside, and the loopback port its bridge listens on. */
export const PROXY_IN_SANDBOX = '/run/regreen-proxy.sock';
export { PROXY_PORT };

export interface MountPlan {
  readonly policy: SandboxPolicy;
  /** The sandbox's own `/etc/passwd` and `/etc/group` (the uid it runs as named). */
  readonly ids: { readonly passwd: string; readonly group: string };
  /** The private tmp and home, on disk (or on the job's volume). */
  readonly tmp: string;
  readonly home: string;
}

/**
 * How long the host's part of a command's mounts is reused (ms): what `/etc`
 * holds that an unprivileged user could not read, and the package managers'
 * files in it and in the readable toolchains. Finding them reads a few
 * hundred folders, and a job makes a command's mounts twice for each command
 * (the sandbox made ahead, then the one the command takes) in each of its
 * sandboxes. These are host folders the sandbox only reads: a file the host
 * adds there is masked from the commands that start at most this long after.
 * A mask whose file the host removed meanwhile (its package manager
 * renaming a `.dpkg-new` away) is left out of each command's mounts
 * (`stillThere`): bubblewrap cannot make a missing path in a read-only
 * folder, and a file that is gone has nothing to hide. A sandbox that fails
 * to start (one removed between that look and bubblewrap's mount) forgets
 * them all, the walk of /etc too, and the next try finds them again.
 */
const HOST_MOUNTS_REUSED_MS = 5_000;

interface HostMounts {
  readonly at: number;
  readonly system: Mount[];
  /** The masks in `/etc`: its unreadable entries, the system git config, the package managers' files. */
  readonly etc: Mount[];
  /** The package managers' files in the readable toolchains. */
  readonly clientConfigs: Mount[];
}

/** A mask's path is still on the host (looked up as each command's mounts are made, no link followed). */
const stillThere = (mask: Mount): boolean => {
  try {
    lstatSync(mask.target);
    return true;
  } catch {
    return false;
  }
};

/** The host's part, by what it is found from: the readable folders and the base environment. */
const hostMountsBy = new Map<string, HostMounts>();

/** Forgets the host's part: the next command finds it again (its sandbox failed to start). */
export const forgetHostMounts = (): void => {
  hostMountsBy.clear();
  forgetEtcMasks();
};

const hostMounts = (plan: MountPlan): HostMounts => {
  const now = Date.now();
  const key = JSON.stringify([plan.policy.readable, plan.policy.baseEnv]);
  const known = hostMountsBy.get(key);
  if (known && now - known.at >= 0 && now - known.at < HOST_MOUNTS_REUSED_MS) return known;
  const clientConfigs = clientConfigMounts(plan.policy.readable, plan.policy.baseEnv);
  const inEtc = (mount: Mount): boolean => isAncestorOrSame('/etc', mount.target);
  const etc = [...etcMounts(), ...clientConfigs.filter(inEtc)];
  const made = {
    at: now,
    system: systemMounts(),
    etc,
    clientConfigs: clientConfigs.filter((mount) => !inEtc(mount)),
  };
  if (hostMountsBy.size >= 16) hostMountsBy.clear();
  hostMountsBy.set(key, made);
  return made;
};

/**
 * Every mount of a command, in bubblewrap's order (a later mount covers an
 * earlier one): the system read-only, `/etc` with what an unprivileged user
 * could not read and the package managers' files masked (those still there)
 * and the sandbox's own passwd and group, `/dev` and `/proc`, bounded tmpfs
 * for `/run`, `/tmp` and `/var/tmp`, the readable toolchains, the package
 * managers' configuration files in them masked, the private tmp and home
 * and the workspace writable, the `.git` folders pinned read-only by
 * descriptor, and the setup proxy's socket in setup.
 */
export const commandMounts = (
  plan: MountPlan,
  proxy: SetupProxy | undefined,
  pinned: readonly Mount[],
): Mount[] => {
  const { policy, ids, tmp, home } = plan;
  const tmpfsBytes = Math.min(policy.limits.diskMb, 1024) * 1024 * 1024;
  const host = hostMounts(plan);
  return [
    ...host.system,
    { kind: 'ro', source: '/etc', target: '/etc' },
    ...host.etc.filter(stillThere),
    { kind: 'ro', source: ids.passwd, target: '/etc/passwd' },
    { kind: 'ro', source: ids.group, target: '/etc/group' },
    { kind: 'dev', source: '/dev', target: '/dev' },
    { kind: 'proc', source: '/proc', target: '/proc' },
    // /tmp and /var/tmp in memory, bounded; TMPDIR (the private tmp, on disk) is where tools are told to write.
    { kind: 'tmpfs', source: '/run', target: '/run', sizeBytes: 16 * 1024 * 1024 },
    { kind: 'tmpfs', source: '/tmp', target: '/tmp', sizeBytes: tmpfsBytes },
    { kind: 'tmpfs', source: '/var/tmp', target: '/var/tmp', sizeBytes: tmpfsBytes },
    // Over what the system folders would show of them; regreen's own code and the job's folders
    // inside one are bound back after (readable folders hold no secret root: see readableRoots).
    ...secretMasks(policy.hidden ?? [], policy.readable),
    // After the tmpfs mounts: a toolchain or regreen itself may live under /tmp.
    ...policy.readable.map((dir): Mount => ({ kind: 'ro', source: dir, target: dir })),
    // After every read-only mount they cover: the package managers' files in each toolchain.
    ...host.clientConfigs.filter(stillThere),
    { kind: 'rw', source: tmp, target: tmp },
    { kind: 'rw', source: home, target: home },
    { kind: 'rw', source: policy.workspace, target: policy.workspace },
    ...pinned,
    ...(proxy ? [{ kind: 'rw' as const, source: proxy.socketPath, target: PROXY_IN_SANDBOX }] : []),
  ];
};

/**
 * A setup command's proxy variables: every client (Java's too) goes through the bridge. Java's
 * properties are added to the command's own `JAVA_TOOL_OPTIONS`, the one `commandEnv` cleaned,
 * never to the operator's value as it is.
 */
export const proxyEnv = (commandEnv: Readonly<Record<string, string>>): Record<string, string> => {
  const url = `http://127.0.0.1:${PROXY_PORT}`;
  const java = `-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=${PROXY_PORT} -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=${PROXY_PORT}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    JAVA_TOOL_OPTIONS: [commandEnv.JAVA_TOOL_OPTIONS, java].filter(Boolean).join(' '),
  };
};

/**
 * The first shell's script before the command: limits, the proxy bridge in setup, the ready byte,
 * TMPDIR. It runs with no variable of the command's (they are its arguments, for `env -i`), and
 * finds its programs in the system's folders only.
 */
export const prelude = (
  policy: SandboxPolicy,
  tmp: string,
  network: 'off' | 'setup',
  readyFd: number | undefined,
): string =>
  [
    'PATH=/usr/bin:/bin',
    `${limitLines(policy.limits)} || { echo "regreen: cannot set the sandbox's limits" >&2; exit 125; }`,
    ...(network === 'setup'
      ? [
          `socat TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${PROXY_IN_SANDBOX} 2>/dev/null &`,
          `up=0; for i in $(seq 200); do (: </dev/tcp/127.0.0.1/${PROXY_PORT}) 2>/dev/null && { up=1; break; }; sleep 0.025; done`,
          `[ "$up" = 1 ] || { echo "regreen: the setup proxy bridge did not start" >&2; exit 125; }`,
        ]
      : []),
    ...(readyFd === undefined ? [] : [`printf R >&${readyFd}`, `exec ${readyFd}>&-`]),
    `export TMPDIR=${quote(tmp)}`,
  ].join('\n');

/**
 * A command's first shell: the prelude, then into the command's folder as
 * the command's own uid, then the command as CI runs a step, with its
 * variables (`$1` the command, `$2` its folder, then its `NAME=VALUE`s). The
 * folder is entered after the ready byte and the drop: a folder the command
 * closed to all but its owner (`chmod 700 .`) fails that command's own run,
 * not the sandbox's start (bubblewrap's first process holds no capability to
 * read past a mode).
 */
export const commandScript = (
  policy: SandboxPolicy,
  tmp: string,
  network: 'off' | 'setup',
  readyFd: number,
): string =>
  `${prelude(policy, tmp, network, readyFd)}\ncd -- "$2" || exit 1\nexec /usr/bin/env -i -- "\${@:3}" /bin/bash --norc --noprofile -c "$1"`;

/** A long-running program's first shell: the prelude, then the program (`$1` how many `NAME=VALUE`s follow, then the program's argv). */
export const spawnScript = (policy: SandboxPolicy, tmp: string): string =>
  `${prelude(policy, tmp, 'off', undefined)}\nexec /usr/bin/env -i -- "\${@:2:$1}" "\${@:$(($1 + 2))}"`;

/** The command's environment as `env -i` takes it. */
export const envWords = (env: Readonly<Record<string, string>>): string[] =>
  Object.entries(env).map(([name, value]) => `${name}=${value}`);
