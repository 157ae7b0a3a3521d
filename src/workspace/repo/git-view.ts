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
 * - the workspace at its own path, bound `nosymfollow` (Linux 5.10): resolving
 *   a path through a link there fails, `readlink` (what git stores for a
 *   link) still works;
 * - and the folders of files regreen names to git (an index of its own).
 * A `gitdir:` to any other path then names nothing, and the repository is a
 * folder of files. `noFollowUnavailable` (git.ts) proves on the host that the
 * view refuses a link and hides a path outside it.
 */
import { createHash } from 'node:crypto';
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

/** Mounts the view's table (one `mount -a`: all of it in one process), then runs the command chrooted in it. */
const VIEW_SCRIPT = 'mount -a -T "$1" && root=$2 && shift 2 && exec chroot "$root" "$@"';

/** A path as a mount table writes it: whitespace and the backslash as octal escapes. */
const tablePath = (file: string): string =>
  file.replace(/[\s\\]/g, (char) => `\\${char.charCodeAt(0).toString(8).padStart(3, '0')}`);

interface ViewRoot {
  /** regreen's folder (0700, its user's): the root below it, and the mount tables beside it. */
  readonly base: string;
  /** What the view is chrooted into. */
  readonly root: string;
  /** The mount table's lines for the system's folders and devices, the same on every call. */
  readonly system: readonly string[];
  /** The tables written (each for one set of folders). */
  readonly tables: Set<string>;
}

/**
 * regreen's folder for views, one per user and shared by its processes (what
 * is in it is the same for all of them, each file written whole): a folder
 * someone else made or can write is not used, a folder of this process's own
 * is made instead and removed at its exit.
 */
const baseFolder = (): string => {
  const uid = process.getuid?.() ?? -1;
  const shared = path.join(os.tmpdir(), `regreen-git-view-${uid}`);
  try {
    mkdirSync(shared, { mode: 0o700 });
  } catch {
    // There already: whose, and open to whom, is asked next.
  }
  const stat = lstatSync(shared, { throwIfNoEntry: false });
  if (stat?.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0) return shared;
  const own = mkdtempSync(path.join(os.tmpdir(), 'regreen-git-view-'));
  process.once('exit', () => rmSync(own, { recursive: true, force: true }));
  return own;
};

let made: ViewRoot | undefined;
/**
 * The root a view is chrooted into: the mount points of the system's
 * folders, the same links a merged `/usr` has, and the files the devices are
 * bound onto. Mounts onto it exist only in each call's own namespace, never
 * on the host.
 */
const viewRoot = (): ViewRoot => {
  if (made) return made;
  const base = baseFolder();
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
  made = { base, root, system, tables: new Set() };
  return made;
};

/**
 * `unshare`'s arguments to run `command` (a program and its arguments, the
 * program found on PATH inside the view) on the view of `workspace`, with the
 * folders of `files` (absolute paths regreen's git writes, such as an index
 * of its own) bound beside it.
 */
export const viewArgv = (
  workspace: string,
  files: readonly string[],
  command: readonly string[],
): string[] => {
  const view = viewRoot();
  const top = path.resolve(workspace);
  const beside = new Set(
    files
      .map((file) => path.dirname(path.resolve(top, file)))
      .filter((dir) => path.relative(top, dir).startsWith('..')),
  );
  for (const dir of beside)
    // Bound whole, it would show the folders beside the workspace too.
    if (!path.relative(dir, top).startsWith('..'))
      throw new Error(`regreen's git file ${dir} is in a folder that holds the workspace ${top}`);
  const dirs = [top, ...beside];
  // One table per set of folders, named by them: written whole (through a new file) the first
  // time, so a call running at once never reads half of one.
  const table = path.join(
    view.base,
    `table-${createHash('sha256').update(dirs.join('\0')).digest('hex').slice(0, 24)}`,
  );
  if (!view.tables.has(table)) {
    // Mount points for regreen's own paths (never a repository's): made on the host, empty.
    for (const dir of dirs) mkdirSync(path.join(view.root, dir), { recursive: true });
    const lines = dirs.map(
      (dir) =>
        `${tablePath(dir)} ${tablePath(path.join(view.root, dir))} none bind,nosymfollow 0 0`,
    );
    const written = `${table}.${process.pid}-${view.tables.size}`;
    writeFileSync(written, [...view.system, ...lines, ''].join('\n'));
    renameSync(written, table);
    // Remembered for the process's recent workspaces only (a server's jobs come and go).
    if (view.tables.size >= 512) view.tables.clear();
    view.tables.add(table);
  }
  return [
    ...(process.getuid?.() === 0 ? ['-m'] : ['-r', '-m']),
    '--propagation',
    'private',
    'sh',
    '-c',
    VIEW_SCRIPT,
    'sh',
    table,
    view.root,
    ...command,
  ];
};
