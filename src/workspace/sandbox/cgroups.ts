import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { quote } from '../../util/text.ts';
import type { CommandLimits } from './sandbox.ts';

/**
 * A control group per sandboxed command, where the host lets regreen make one
 * (cgroup v2 with the pids and memory controllers delegated, or v1's pids and
 * memory hierarchies writable — typically when regreen runs as root or as a
 * systemd service with `Delegate=yes`). It bounds the whole command: the
 * number of processes and the memory of all of them together, tmpfs
 * included. Where the host allows none, the rlimits of limits.ts
 * are the bound.
 */

const ROOT = '/sys/fs/cgroup';

interface Controller {
  readonly dir: string;
  readonly kind: 'pids' | 'memory';
  readonly version: 1 | 2;
}

export interface CommandCgroup {
  /** The controllers this host let regreen use for the group. */
  readonly kinds: readonly ('pids' | 'memory')[];
  /** The shell line that moves the shell running it into the group (exit 125 when it cannot); what it execs is in the group from its start. */
  readonly enter: string;
  /** Which limit the command reached, in words; undefined when none. */
  reached(): string | undefined;
  remove(): void;
}

const ownPaths = (): Map<string, string> => {
  const paths = new Map<string, string>();
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, controllers, where] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
      if (controllers === undefined || where === undefined) continue;
      for (const name of controllers === '' ? ['unified'] : controllers.split(','))
        paths.set(name, where);
    }
  } catch {
    // no cgroups at all
  }
  return paths;
};

const tryWrite = (file: string, value: string): boolean => {
  try {
    writeFileSync(file, value);
    return true;
  } catch {
    return false;
  }
};

const readNumber = (file: string, key: string): number => {
  try {
    const line = readFileSync(file, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith(`${key} `));
    return Number(line?.split(/\s+/)[1] ?? 0);
  } catch {
    return 0;
  }
};

const makeV2 = (name: string, limits: CommandLimits): Controller[] => {
  if (!existsSync(path.join(ROOT, 'cgroup.controllers'))) return [];
  const own = ownPaths().get('unified') ?? '/';
  const parent = path.join(ROOT, own);
  const enabled = (): string[] => {
    try {
      return readFileSync(path.join(parent, 'cgroup.subtree_control'), 'utf8').trim().split(/\s+/);
    } catch {
      return [];
    }
  };
  if (!enabled().includes('pids') || !enabled().includes('memory'))
    tryWrite(path.join(parent, 'cgroup.subtree_control'), '+pids +memory');
  if (!enabled().includes('pids') || !enabled().includes('memory')) return [];
  const dir = path.join(parent, name);
  try {
    mkdirSync(dir);
  } catch {
    return [];
  }
  const ok =
    tryWrite(path.join(dir, 'pids.max'), String(limits.processes)) &&
    tryWrite(path.join(dir, 'memory.max'), String(limits.memoryMb * 1024 * 1024));
  tryWrite(path.join(dir, 'memory.swap.max'), '0');
  if (!ok) {
    rmdirSync(dir);
    return [];
  }
  return [
    { dir, kind: 'pids', version: 2 },
    { dir, kind: 'memory', version: 2 },
  ];
};

const makeV1 = (name: string, limits: CommandLimits): Controller[] => {
  const own = ownPaths();
  const made: Controller[] = [];
  for (const kind of ['pids', 'memory'] as const) {
    const base = path.join(ROOT, kind, own.get(kind) ?? '/');
    if (!existsSync(base)) continue;
    const dir = path.join(base, name);
    try {
      mkdirSync(dir);
    } catch {
      continue;
    }
    const ok =
      kind === 'pids'
        ? tryWrite(path.join(dir, 'pids.max'), String(limits.processes))
        : tryWrite(path.join(dir, 'memory.limit_in_bytes'), String(limits.memoryMb * 1024 * 1024));
    if (kind === 'memory')
      tryWrite(
        path.join(dir, 'memory.memsw.limit_in_bytes'),
        String(limits.memoryMb * 1024 * 1024),
      );
    if (ok) made.push({ dir, kind, version: 1 });
    else rmdirSync(dir);
  }
  return made;
};

let unavailable = false;

/** A group of regreen's, by the pid of the regreen that made it. */
const GROUP_NAME = /^regreen-(\d+)-[0-9a-f]{8}$/;
/** How old a group must be before another regreen removes it: one made a moment ago may be about to be joined. */
const STALE_MS = 60_000;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
};

/**
 * Removes the empty groups under `parent` that a regreen which no longer runs
 * left (killed before it could remove them), once they are a minute old: the
 * kernel refuses to remove a group that still holds a process, and a live
 * regreen's group is never touched. Returns how many went.
 */
export const sweepStaleGroups = (parent: string, now = Date.now()): number => {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return 0;
  }
  for (const name of names) {
    const pid = Number(GROUP_NAME.exec(name)?.[1] ?? 0);
    if (pid === 0 || pid === process.pid || alive(pid)) continue;
    const dir = path.join(parent, name);
    try {
      if (now - statSync(dir).mtimeMs < STALE_MS) continue;
      rmdirSync(dir);
      removed += 1;
    } catch {
      // still holds a process, or already gone
    }
  }
  return removed;
};

/** The parents this process has swept (once each). */
const swept = new Set<string>();

/** A new group for one command, or undefined when this host lets regreen make none. */
export const commandCgroup = (limits: CommandLimits): CommandCgroup | undefined => {
  if (unavailable || process.platform !== 'linux') return undefined;
  const name = `regreen-${process.pid}-${randomBytes(4).toString('hex')}`;
  const controllers = makeV2(name, limits);
  if (controllers.length === 0) controllers.push(...makeV1(name, limits));
  if (controllers.length === 0) {
    unavailable = true;
    return undefined;
  }
  const dirs = [...new Set(controllers.map((controller) => controller.dir))];
  for (const parent of new Set(dirs.map((dir) => path.dirname(dir)))) {
    if (swept.has(parent)) continue;
    swept.add(parent);
    sweepStaleGroups(parent);
  }
  return {
    kinds: [...new Set(controllers.map((controller) => controller.kind))],
    enter: dirs
      .map((dir) => `echo $$ > ${quote(path.join(dir, 'cgroup.procs'))} || exit 125`)
      .join('; '),
    reached: () => {
      for (const controller of controllers) {
        if (
          controller.kind === 'pids' &&
          readNumber(path.join(controller.dir, 'pids.events'), 'max') > 0
        )
          return `it reached the sandbox's limit of ${limits.processes} processes (REGREEN_MAX_PROCESSES)`;
        if (controller.kind === 'memory') {
          const hit =
            readNumber(
              path.join(
                controller.dir,
                controller.version === 2 ? 'memory.events' : 'memory.oom_control',
              ),
              'oom_kill',
            ) > 0;
          if (hit)
            return `it reached the sandbox's memory limit of ${limits.memoryMb} MiB (REGREEN_MAX_MEMORY_MB)`;
        }
      }
      return undefined;
    },
    remove: () => {
      for (const dir of dirs) {
        for (let attempt = 0; attempt < 50; attempt += 1) {
          try {
            rmdirSync(dir);
            break;
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EBUSY') break;
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
          }
        }
      }
    },
  };
};
