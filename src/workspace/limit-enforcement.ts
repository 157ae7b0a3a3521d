import { commandCgroup } from './cgroups.ts';

/**
 * What enforces each of a sandboxed command's limits on this host, and what
 * does not: a limit never silently does nothing. `regreen doctor` prints it,
 * and every job's trace says which limits this host leaves unbound.
 *
 * - processes: a pids cgroup per command where the host lets regreen make
 *   one; else RLIMIT_NPROC of the command's host uid — regreen's own uid, or
 *   when regreen runs as root the sandbox's unprivileged one
 *   (`sandbox-identity.ts`), which all its sandboxes share.
 * - memory: a memory cgroup (the whole command) where possible; else
 *   RLIMIT_DATA, per process only.
 * - disk: RLIMIT_FSIZE bounds each file and /tmp, /var/tmp are size-bounded
 *   tmpfs; the workspace, home and tmp as a whole are watched (every 2 s),
 *   not bounded by the kernel.
 */
export interface LimitEnforcement {
  readonly limit: 'processes' | 'memory' | 'disk';
  /** The kernel bounds it for the whole command. */
  readonly enforced: boolean;
  readonly by: string;
  /** What is left unbound, when something is. */
  readonly gap?: string;
  readonly fix?: string;
}

const CGROUPS_FIX =
  'let regreen make cgroups: run it as a systemd service with Delegate=yes, or in a container with a writable cgroup v2 subtree';

export const limitEnforcement = (host: {
  readonly isRoot: boolean;
  readonly cgroupKinds: readonly ('pids' | 'memory')[];
}): LimitEnforcement[] => {
  const pids = host.cgroupKinds.includes('pids');
  const memory = host.cgroupKinds.includes('memory');
  return [
    pids
      ? { limit: 'processes', enforced: true, by: 'a pids cgroup per command' }
      : {
          limit: 'processes',
          enforced: true,
          by: host.isRoot
            ? 'RLIMIT_NPROC of the sandbox’s unprivileged host uid (REGREEN_SANDBOX_UID), shared by the commands running at once'
            : 'RLIMIT_NPROC (per user)',
        },
    memory
      ? { limit: 'memory', enforced: true, by: 'a memory cgroup per command (all its processes)' }
      : {
          limit: 'memory',
          enforced: false,
          by: 'RLIMIT_DATA, per process',
          gap: 'no memory cgroup can be made here: a command’s processes together can use the limit many times over',
          fix: CGROUPS_FIX,
        },
    {
      limit: 'disk',
      enforced: false,
      by: 'RLIMIT_FSIZE per file; /tmp and /var/tmp as size-bounded tmpfs',
      gap: 'the workspace, home and tmp as a whole are watched every 2 s, not bounded by the kernel',
    },
  ];
};

let probed: LimitEnforcement[] | undefined;

/** This host's answer, probed once per process (a group made and removed at once). */
export const hostLimitEnforcement = (): LimitEnforcement[] => {
  if (probed) return probed;
  const group = commandCgroup({ processes: 64, memoryMb: 64, diskMb: 64 });
  const kinds = group?.kinds ?? [];
  group?.remove();
  probed = limitEnforcement({ isRoot: process.geteuid?.() === 0, cgroupKinds: kinds });
  return probed;
};

/** The trace's line: the limits this host leaves unbound, or undefined when it binds them all. */
export const unboundLimitsNote = (enforcement: readonly LimitEnforcement[]): string | undefined => {
  const gaps = enforcement.filter((e) => !e.enforced);
  return gaps.length === 0
    ? undefined
    : `sandbox limits this host does not bind: ${gaps.map((e) => `${e.limit} (${e.gap ?? e.by})`).join('; ')}`;
};
