import { commandCgroup } from './cgroups.ts';
import { volumeUnavailable } from './job-volume.ts';

/**
 * What enforces each of a sandboxed command's limits on this host, and what
 * does not: a limit never silently does nothing. `regreen doctor` prints it,
 * and every job's trace says which limits this host leaves unbound.
 *
 * - processes: a pids cgroup per command where the host lets regreen make
 *   one; else RLIMIT_NPROC of the command's host uid — regreen's own uid, or
 *   when regreen runs as root the sandbox's unprivileged one
 *   (`sandbox/identity.ts`), which all its sandboxes share.
 * - memory: a memory cgroup (the whole command) where possible; else
 *   RLIMIT_DATA, per process only.
 * - disk: RLIMIT_FSIZE bounds each file and /tmp, /var/tmp are size-bounded
 *   tmpfs; the job's trees (workspace, tmp, home, fresh trees) together sit
 *   on a volume of the limit's size where regreen can mount one
 *   (`job-volume.ts`: root and a loop device); elsewhere they are watched
 *   (every 2 s), not bounded by the kernel.
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
  /** Why no job volume can be mounted here; undefined when one can. */
  readonly volumeUnavailable?: string;
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
    host.volumeUnavailable === undefined
      ? {
          limit: 'disk',
          enforced: true,
          by: 'a volume of the limit’s size per job (a loop-mounted ext4 image) holding its workspace, tmp and home together; RLIMIT_FSIZE per file; /tmp and /var/tmp as size-bounded tmpfs',
        }
      : {
          limit: 'disk',
          enforced: false,
          by: 'RLIMIT_FSIZE per file; /tmp and /var/tmp as size-bounded tmpfs',
          gap: `the workspace, home and tmp as a whole are watched every 2 s, not bounded by the kernel (${host.volumeUnavailable})`,
          fix: 'run regreen as root where a loop device can be mounted (a VM, or a container with --privileged or /dev/loop* and CAP_SYS_ADMIN), with REGREEN_JOB_VOLUME unset',
        },
  ];
};

let probed: Omit<Parameters<typeof limitEnforcement>[0], 'volumeUnavailable'> | undefined;

/**
 * This host's answer: cgroups probed once per process (a group made and
 * removed at once). The disk's answer is the job's own when it has opened
 * its volume (`job`), else a volume made and removed here.
 */
export const hostLimitEnforcement = (job?: {
  readonly volumeUnavailable?: string;
}): LimitEnforcement[] => {
  if (!probed) {
    const group = commandCgroup({ processes: 64, memoryMb: 64, diskMb: 64 });
    const kinds = group?.kinds ?? [];
    group?.remove();
    probed = { isRoot: process.geteuid?.() === 0, cgroupKinds: kinds };
  }
  const volume = job ? job.volumeUnavailable : volumeUnavailable();
  return limitEnforcement({
    ...probed,
    ...(volume !== undefined ? { volumeUnavailable: volume } : {}),
  });
};

/** The trace's line: the limits this host leaves unbound, or undefined when it binds them all. */
export const unboundLimitsNote = (enforcement: readonly LimitEnforcement[]): string | undefined => {
  const gaps = enforcement.filter((e) => !e.enforced);
  return gaps.length === 0
    ? undefined
    : `sandbox limits this host does not bind: ${gaps.map((e) => `${e.limit} (${e.gap ?? e.by})`).join('; ')}`;
};
