/**
 * The view a host git reads a worktree on. Sandboxed code can plant anything
 * in a workspace: a link where git will open a file, or a `.git` file whose
 * `gitdir:` (or a `.git/commondir`) names a repository elsewhere on the host,
 * which `git add -A`, `ls-files --others` and `status` then open to ask
 * whether it is a repository (its HEAD, its refs: a gitlink records its
 * commit). Naming what git must not read would be a list; instead it runs
 * where nothing else exists. Each call gets a mount namespace of its own
 * (`unshare`, private propagation; as a user namespace when regreen is not
 * root) and is chrooted into a root of regreen's own (`viewRoot`) holding only:
 * - the system's programs and libraries, read-only (the folders of `/` git
 *   and its loader live in, or the links to them a merged `/usr` has);
 * - `/dev/null` (git's configuration, hooks and attributes point there) and
 *   `/dev/urandom` (the names of its temporary files);
 * - the workspace at `/workspace`, bound `nosymfollow` (Linux 5.10):
 *   resolving a path through a link there fails, `readlink` (what git stores
 *   for a link) still works;
 * - and at `/index` the folder of an index file of regreen's, when it names one.
 * A `gitdir:` to any other path then names nothing, and the repository is a
 * folder of files. `noFollowProbe` (git-view-probe.ts) proves on the host that the
 * view refuses a link and hides a path outside it.
 */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The folders of `/` where a system keeps programs and libraries (absent ones are skipped). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

const DEVICES = ['/dev/null', '/dev/urandom'];

/** The address space a view's git may take (KiB): far above what reading a worktree needs. */
const VIEW_MEMORY_KIB = 2 * 1024 * 1024;

/**
 * The CPU time a view's git may take (seconds): a `.gitignore` of thousands of
 * wildcards over thousands of files costs their product on every call.
 */
const VIEW_CPU_SECONDS = 120;

/**
 * Mounts the system's table (one `mount -a`: all of it in one process), the
 * workspace at `/workspace` and an index file's folder at `/index` (when one
 * is named; both `nosymfollow`, and nothing there runs, as a program or as
 * setuid), then runs the command chrooted in the root, its memory and CPU
 * time bounded: git reads a `.gitignore` whole, and a sparse one of
 * gigabytes costs the sandbox no disk.
 */
const VIEW_SCRIPT = [
  'mount -a -T "$1"',
  'mount --bind -o nosymfollow,nosuid,nodev,noexec "$2" "$4/workspace"',
  '{ [ -z "$3" ] || mount --bind -o nosymfollow,nosuid,nodev,noexec "$3" "$4/index"; }',
  `ulimit -v ${VIEW_MEMORY_KIB}`,
  `ulimit -t ${VIEW_CPU_SECONDS}`,
  'root=$4 && shift 4 && exec chroot "$root" "$@"',
].join(' && ');

/**
 * The only PATH of a view (of `unshare`, `mount` and `chroot` outside it, of
 * git inside): the system's folders, never the caller's, so no program is
 * found in the workspace.
 */
export const VIEW_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Where the workspace, and the folder of an index file of regreen's, are in the view. */
export const VIEW_WORKSPACE = '/workspace';
const VIEW_INDEX = '/index';

/** A path as a mount table writes it: whitespace and the backslash as octal escapes. */
const tablePath = (file: string): string =>
  file.replace(/[\s\\]/g, (char) => `\\${char.charCodeAt(0).toString(8).padStart(3, '0')}`);

interface ViewRoot {
  /** regreen's folder (0700, its user's): the root below it, and the mount table beside it. */
  readonly base: string;
  /** The base as lstat saw it when it was vetted: the same folder on every later call. */
  readonly identity: string;
  /** What the view is chrooted into. */
  readonly root: string;
  /** The mount table of the system's folders and devices, the same on every call. */
  readonly table: string;
}

/** A folder as lstat sees it, when it is a folder of this user's that no one else may enter. */
const ownFolder = (dir: string): string | undefined => {
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  const uid = process.getuid?.() ?? -1;
  return stat?.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0
    ? `${stat.dev}:${stat.ino}`
    : undefined;
};

/**
 * Where regreen keeps its folder for views, one per user and shared by its
 * processes (what is in it is the same for all of them, each file written
 * whole): for root `/run` (root's own, which no temporary-file cleaner
 * empties), else the temporary folder. A folder there someone else made, or
 * may enter, is not used: one of this process's own is made instead, and
 * removed at its exit.
 */
const baseFolder = (): string => {
  const uid = process.getuid?.() ?? -1;
  const run = lstatSync('/run', { throwIfNoEntry: false });
  const parent =
    uid === 0 && run?.isDirectory() && run.uid === 0 && (run.mode & 0o022) === 0
      ? '/run'
      : os.tmpdir();
  const shared = path.join(parent, `regreen-git-view-${uid}`);
  try {
    mkdirSync(shared, { mode: 0o700 });
  } catch {
    // There already: whose, and open to whom, is asked next.
  }
  if (ownFolder(shared)) return shared;
  const own = mkdtempSync(path.join(os.tmpdir(), 'regreen-git-view-'));
  process.once('exit', () => rmSync(own, { recursive: true, force: true }));
  return own;
};

let made: ViewRoot | undefined;
/**
 * The root a view is chrooted into: the mount points of the system's
 * folders, the same links a merged `/usr` has, and the files the devices are
 * bound onto. Mounts onto it exist only in each call's own namespace, never
 * on the host. Asked on every call whether its folder is still the one made
 * (removed by a cleaner and made again by someone else, it would hold their
 * table and their programs): else made again.
 */
const viewRoot = (): ViewRoot => {
  if (made && ownFolder(made.base) === made.identity) return made;
  const base = baseFolder();
  const identity = ownFolder(base) ?? '';
  const root = path.join(base, 'root');
  mkdirSync(root, { recursive: true });
  const system: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    const at = path.join(root, dir);
    if (stat?.isSymbolicLink()) {
      const target = readlinkSync(dir);
      if (lstatSync(at, { throwIfNoEntry: false }) === undefined) symlinkSync(target, at);
    } else if (stat?.isDirectory()) {
      mkdirSync(at, { recursive: true });
      system.push(`${tablePath(dir)} ${tablePath(at)} none rbind,ro 0 0`);
    }
  }
  // git's settings point at /dev/null, and its temporary files' names come from /dev/urandom.
  mkdirSync(path.join(root, 'dev'), { recursive: true });
  for (const device of DEVICES) {
    writeFileSync(path.join(root, device), '', { flag: 'a' });
    system.push(`${device} ${tablePath(path.join(root, device))} none bind 0 0`);
  }
  for (const at of [VIEW_WORKSPACE, VIEW_INDEX])
    mkdirSync(path.join(root, at), { recursive: true });
  // Written whole, through a new file: a process running a call meanwhile reads all of it.
  const table = path.join(base, 'system.fstab');
  const written = `${table}.${process.pid}`;
  writeFileSync(written, [...system, ''].join('\n'));
  renameSync(written, table);
  made = { base, identity, root, table };
  return made;
};

/**
 * `unshare`'s arguments to run `command` (a program and its arguments, the
 * program found on PATH inside the view) on the view of `workspace`, which it
 * finds at `VIEW_WORKSPACE`, and the path in the view of `indexFile` (a file
 * regreen's git writes beside the workspace, its folder bound whole).
 */
export const viewArgv = (
  workspace: string,
  indexFile: string | undefined,
  command: readonly string[],
): { readonly argv: string[]; readonly indexFile?: string } => {
  const view = viewRoot();
  const top = path.resolve(workspace);
  const index = indexFile === undefined ? undefined : path.resolve(top, indexFile);
  const folder = index === undefined ? '' : path.dirname(index);
  // Bound whole, a folder that holds the workspace would show what is beside it too; one inside
  // it is the workspace's code's to swap for a link (the bind would follow it).
  if (folder && !path.relative(folder, top).startsWith('..'))
    throw new Error(`regreen's git file ${index} is in a folder that holds the workspace ${top}`);
  if (folder && !path.relative(top, folder).startsWith('..'))
    throw new Error(`regreen's git file ${index} is inside the workspace ${top}`);
  return {
    argv: [
      ...(process.getuid?.() === 0 ? ['-m'] : ['-r', '-m']),
      '--propagation',
      'private',
      'sh',
      '-c',
      VIEW_SCRIPT,
      'sh',
      view.table,
      top,
      folder,
      view.root,
      ...command,
    ],
    ...(index === undefined ? {} : { indexFile: path.join(VIEW_INDEX, path.basename(index)) }),
  };
};
