/**
 * The descriptors a bubblewrap command is given, made just before it starts:
 * the seccomp program (a file of the sandbox's own, opened and unlinked), the
 * user namespace when regreen runs as root, and `.git` and the submodule
 * folders opened without following a link, bound read-only by descriptor (one
 * swapped for a link between two commands would otherwise have bubblewrap
 * mount the host folder it names); and the entries a command holds still
 * (`SandboxRunRequest.hold`), bound onto themselves the same way.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RegreenError } from '../../errors.ts';
import { openDirInside, openFileInside } from '../repo/confined-fs.ts';
import { lstatInside } from '../repo/confined-stat.ts';
import { gitlinkDirs } from './bubblewrap-host.ts';
import type { Mount } from './mounts.ts';
import type { SandboxPolicy } from './sandbox.ts';

/** The descriptor bubblewrap reads the seccomp program from (the first after stdio). */
export const FILTER_FD = 3;

export interface PinnedFds {
  /** Descriptors after the filter, in order: the namespace (as root), then the held entries and the pinned folders. */
  readonly extra: number[];
  /** The held entries bound onto themselves, then the pinned folders read-only, by descriptor. */
  readonly pinned: Mount[];
  readonly close: () => void;
}

/** The folders a command may read but never write, wherever they are in the workspace. */
export const readOnlyInside = (workspace: string): string[] => [
  path.join(workspace, '.git'),
  ...gitlinkDirs(workspace),
];

/**
 * A held workspace entry opened without following a link: a folder bound as
 * it is, a regular file read-only; undefined for anything else (gone, a link
 * now, a link on the way), which is not bound and is the guard's to report.
 */
const openHeld = (
  workspace: string,
  entry: string,
): { fd: number; kind: 'rw-fd' | 'ro-fd' } | undefined => {
  try {
    const stats = lstatInside(workspace, entry);
    if (stats?.isDirectory()) {
      const fd = openDirInside(workspace, entry);
      return fd === undefined ? undefined : { fd, kind: 'rw-fd' };
    }
    if (stats?.isFile()) return { fd: openFileInside(workspace, entry).fd, kind: 'ro-fd' };
    return undefined;
  } catch {
    return undefined;
  }
};

/**
 * The folders between the workspace and each pinned folder, outermost first.
 * Each is bound onto itself (held): a mount point cannot be renamed or
 * removed, so no command can move a pin away by renaming a parent and put a
 * folder (a planted repository) or a link of its own where the pin was.
 */
const pinnedAncestors = (workspace: string, readOnly: readonly string[]): string[] => {
  const ancestors = new Set<string>();
  for (const dir of readOnly) {
    const segments = path.relative(workspace, dir).split(path.sep);
    for (let depth = 1; depth < segments.length; depth += 1)
      ancestors.add(path.join(workspace, ...segments.slice(0, depth)));
  }
  return [...ancestors];
};

const depthOf = (entry: string): number => entry.split(path.sep).length;

/**
 * Before each command (once root's files in what it writes are the sandbox
 * uid's: `handOver`): the namespace and the pinned folders as descriptors.
 * A link on the way to a pinned folder refuses the command. The held entries
 * (`SandboxRunRequest.hold`, and the folders on the way to each pinned one)
 * are bound onto themselves by descriptor before them, outermost first, so
 * that no bind covers another and a read-only pin inside a held folder stays
 * on top.
 */
export const pinForCommand = (options: {
  readonly policy: SandboxPolicy;
  readonly host?: { readonly usernsFd: number };
  readonly readOnly: readonly string[];
  readonly hold?: readonly string[];
}): PinnedFds => {
  const { policy, host } = options;
  const extra = host ? [host.usernsFd] : [];
  const opened: number[] = [];
  const pinned: Mount[] = [];
  try {
    // The held entries first: a folder bound after a read-only pin inside it would cover the pin.
    const held = [
      ...new Set([...pinnedAncestors(policy.workspace, options.readOnly), ...(options.hold ?? [])]),
    ].sort((a, b) => depthOf(a) - depthOf(b));
    for (const entry of held) {
      if (options.readOnly.includes(entry)) continue;
      const held = openHeld(policy.workspace, entry);
      if (held === undefined) continue;
      opened.push(held.fd);
      pinned.push({ kind: held.kind, source: String(FILTER_FD + 1 + extra.length), target: entry });
      extra.push(held.fd);
    }
    for (const dir of options.readOnly) {
      const fd = openDirInside(policy.workspace, dir);
      if (fd === undefined) continue;
      opened.push(fd);
      pinned.push({ kind: 'ro-fd', source: String(FILTER_FD + 1 + extra.length), target: dir });
      extra.push(fd);
    }
  } catch (error) {
    for (const fd of opened) closeSync(fd);
    throw new RegreenError(
      'sandbox-unavailable',
      `the sandbox refused to start: ${(error as Error).message}`,
    );
  }
  return { extra, pinned, close: () => opened.forEach((fd) => closeSync(fd)) };
};

/** bubblewrap reads the program from a descriptor: a file of this sandbox's own, opened and unlinked. */
export const openFilter = (privateDir: string, program: Buffer): number => {
  const file = path.join(privateDir, `seccomp-${randomBytes(6).toString('hex')}.bpf`);
  writeFileSync(file, program, { mode: 0o600 });
  try {
    return openSync(file, 'r');
  } finally {
    rmSync(file, { force: true });
  }
};
