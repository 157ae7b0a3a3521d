import { lstatSync, realpathSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { lstatInside } from '../../workspace/repo/confined-stat.ts';
import { hostGit, hostGitSync } from '../../workspace/repo/git.ts';
// The owner the guarded files get (`hold`): nobody, not the sandbox, so it can neither write nor chmod them.
import { hold } from './hold-installed.ts';

/** The most entries of the top folder a judging run holds by its mounts (a descriptor and a mount each). */
const MAX_HELD = 512;

/**
 * Tracked paths the working tree differs in from HEAD (modified, deleted, type
 * changed). Never synchronously: the tree's code may have left a FIFO where
 * git opens a file (a `.gitattributes`), which holds this call, not the process.
 */
export const trackedChanges = async (dest: string): Promise<Set<string>> => {
  // Host git takes a tree of another owner's as safe (SAFE_GIT_CONFIG).
  const out = await hostGit(
    ['status', '--porcelain', '-z', '--untracked-files=no', '--no-renames'],
    // The tree's setup and runs wrote it: read on its view, bounded (a sparse file re-encoded
    // by a `working-tree-encoding` attribute took gigabytes of a plain git).
    { cwd: dest, noFollow: true },
  );
  return new Set(
    out
      .split('\0')
      .filter((entry) => entry.length > 3)
      .map((entry) => entry.slice(3)),
  );
};

/** What lstat says of a held path, or why it could not say (absent, a link on the way). */
type Identity = BigIntStats | 'absent' | `unreachable (${string})`;

const identityOf = (root: string, file: string): Identity => {
  try {
    return lstatInside(root, path.join(root, file)) ?? 'absent';
  } catch (error) {
    return `unreachable (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
};

const kindOf = (stats: BigIntStats): string =>
  stats.isFile()
    ? 'a file'
    : stats.isDirectory()
      ? 'a folder'
      : stats.isSymbolicLink()
        ? 'a link'
        : 'a special file';

/** The fields that make a file this file, as it was: any of them moving is a replacement or a write. */
const FILE_FIELDS = [
  ['dev', 'device'],
  ['ino', 'inode'],
  ['mode', 'mode'],
  ['uid', 'owner'],
  ['gid', 'group'],
  ['nlink', 'links'],
  ['size', 'size'],
  ['mtimeNs', 'mtime'],
  ['ctimeNs', 'ctime'],
  ['birthtimeNs', 'birth time'],
] as const;

/**
 * A folder's own entries change as the sandbox makes caches in it (`__pycache__`),
 * so its times, size and link count move; the folder itself must not.
 */
const FOLDER_FIELDS = [
  ['dev', 'device'],
  ['ino', 'inode'],
  ['mode', 'mode'],
  ['uid', 'owner'],
  ['gid', 'group'],
] as const;

const TIMES: ReadonlySet<string> = new Set(['mtimeNs', 'ctimeNs', 'birthtimeNs']);

const shown = (field: string, value: bigint): string =>
  field === 'mode' ? `0${value.toString(8)}` : value.toString();

/** How `after` differs from `before`; undefined when it is the same file or folder, untouched. */
export const identityChange = (before: Identity, after: Identity): string | undefined => {
  if (typeof before === 'string' || typeof after === 'string')
    return before === after
      ? undefined
      : `${typeof before === 'string' ? before : kindOf(before)} before the runs, ${typeof after === 'string' ? after : kindOf(after)} after`;
  if (kindOf(before) !== kindOf(after))
    return `${kindOf(before)} before the runs, ${kindOf(after)} after`;
  const fields = before.isDirectory() ? FOLDER_FIELDS : FILE_FIELDS;
  const moved = fields.filter(([field]) => before[field] !== after[field]);
  if (moved.length === 0) return undefined;
  const reborn =
    !before.isDirectory() && before.birthtimeNs !== 0n && before.birthtimeNs !== after.birthtimeNs;
  const noun = before.isDirectory() ? 'folder' : 'file';
  const what =
    before.dev !== after.dev || before.ino !== after.ino
      ? `another ${noun} now`
      : reborn
        ? `another ${noun} now, under the same inode number`
        : 'the same inode, its status changed (renamed, linked, chmodded or written)';
  const values = moved
    .filter(([field]) => !TIMES.has(field))
    .map(
      ([field, name]) => `${name} ${shown(field, before[field])} → ${shown(field, after[field])}`,
    );
  const times = moved.filter(([field]) => TIMES.has(field)).map(([, name]) => name);
  return `${what}: ${[...values, ...(times.length > 0 ? [`${times.join(', ')} changed`] : [])].join(', ')}`;
};

/** A guard on a tree's tests and harness for the judging runs, and what it found after them. */
export interface TreeGuard {
  /** Whether the files were made unwritable (regreen runs as root); else only checked after. */
  readonly enforced: boolean;
  /**
   * The top folder's entries that hold the guarded files (a base test file at
   * the top, the top folder of `tests/…`): each judging run binds them onto
   * themselves, and a mount point can be neither renamed nor replaced.
   */
  readonly held: readonly string[];
  /** Tracked files outside the judged change that differ now and did not before the runs. */
  readonly changed: () => Promise<readonly string[]>;
  /**
   * Guarded files, and the folders that hold them, that are no longer the
   * ones lstat saw before the runs (another inode, owner, mode, times, size),
   * whatever their content: a file replaced and its bytes put back passes a
   * content comparison, not this one. Each with what moved.
   */
  readonly replaced: () => readonly string[];
  /** Ends the guard (the tree's files stay as they are: the tree is discarded with the job). */
  readonly release: () => void;
}

/**
 * Holds the base's tests and harness still while the judged change runs: the
 * code under test runs in the same process as the tests, and could rewrite a
 * test file before its runner reads it. Every tracked file the judged change
 * does not touch is given to nobody and made read-only, and each folder that
 * holds one (below the top folder) becomes nobody's, world-writable and
 * sticky: the sandbox can still create files there (caches, bytecode), but
 * can neither write, chmod, delete nor rename a guarded one. Only where
 * regreen runs as root (who else could chown); elsewhere the sandbox is the
 * files' owner, and only the comparison after the runs and the mounts below
 * hold them (a folder below the top, the sandbox's then, could still be
 * renamed away and back unseen).
 *
 * The top folder stays the sandbox's: git refuses a work tree whose top is
 * another user's ("dubious ownership"), in the suite, in `go build`'s VCS
 * stamp, in setuptools-scm, and `safe.directory` is honoured only from
 * config a suite that isolates its own git drops (`GIT_CONFIG_NOSYSTEM`, a
 * HOME of its own), so making the top nobody's and sticky would fail honest
 * suites. And its owner may rename any entry in it, sticky or not, a
 * nobody's file or folder included. So the entries of the top folder that
 * hold guarded files (`held`) are bound onto themselves in each judging run
 * (a file read-only): a mount point cannot be renamed, replaced or removed
 * (EBUSY), whoever owns the folder. At most 512 of them, folders first.
 *
 * Everywhere, before the runs, each guarded file's identity (lstat, no link
 * followed: device, inode, mode, owner, links, size, mtime, ctime, birth) and
 * each holding folder's (device, inode, mode, owner) are recorded, and
 * compared after them with the content (`changed`, `replaced`): a file
 * renamed over a guarded one and its original bytes put back is another file
 * (another inode, or the freed inode number again with a new birth time,
 * ctime and owner), and one renamed away and back has a new ctime, which no
 * code in the sandbox can set. Paths are checked to resolve inside the tree
 * first: the setup that ran there may have planted links.
 *
 * Not held here: a view of the tree of the code's own. Where the sandbox lets
 * a process make a nested user and mount namespace, the code under test can
 * bind another file over a held one in its own view, and nothing on the host
 * changes; that is the sandbox's to refuse.
 */
export const guardTree = async (
  dest: string,
  judged: ReadonlySet<string>,
  isRoot = process.getuid?.() === 0,
): Promise<TreeGuard> => {
  const before = await trackedChanges(dest);
  const tracked = hostGitSync(['ls-files', '-z'], { cwd: dest })
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .filter((file) => !judged.has(file));
  const root = realpathSync(dest);
  if (isRoot) {
    const inside = (file: string): string | undefined => {
      try {
        const real = realpathSync(file);
        return real === root || real.startsWith(`${root}${path.sep}`) ? real : undefined;
      } catch {
        return undefined;
      }
    };
    const folders = new Set<string>();
    for (const file of tracked) {
      const full = path.join(root, file);
      const parent = inside(path.dirname(full));
      if (parent === undefined || parent !== path.dirname(full)) continue;
      let stats;
      try {
        stats = lstatSync(full);
      } catch {
        continue;
      }
      if (!stats.isSymbolicLink() && !stats.isFile()) continue;
      // Opened once without following a link: a link is given to nobody itself.
      hold(full, false);
      // The top folder stays the sandbox's (see above); its entries are held by the runs' mounts.
      for (
        let dir = parent;
        dir !== root && dir.startsWith(`${root}${path.sep}`);
        dir = path.dirname(dir)
      )
        folders.add(dir);
    }
    for (const dir of folders) hold(dir, true);
  }
  // What each held path is once the guard is in place: the runs must leave every one as it is.
  const holding = new Set<string>();
  for (const file of tracked)
    for (let dir = path.dirname(file); dir !== '.' && dir !== ''; dir = path.dirname(dir))
      holding.add(dir);
  const watched = [...tracked, ...holding];
  const identities = new Map(watched.map((file) => [file, identityOf(root, file)]));
  const isFolder = (entry: string): boolean => {
    const identity = identities.get(entry);
    return typeof identity === 'object' && identity.isDirectory();
  };
  const held = [...new Set(tracked.map((file) => file.split('/')[0] ?? file))]
    .filter((entry) => {
      const identity = identities.get(entry);
      return (
        entry !== '.git' &&
        typeof identity === 'object' &&
        (identity.isFile() || identity.isDirectory())
      );
    })
    // Folders first (a folder renamed away and back keeps its identity), then files, up to a cap
    // on descriptors and mounts; a file past it is still compared after the runs.
    .sort((a, b) => Number(isFolder(b)) - Number(isFolder(a)))
    .slice(0, MAX_HELD)
    // As the sandbox mounts the tree: by the path it was given.
    .map((entry) => path.join(dest, entry));
  return {
    enforced: isRoot,
    held,
    changed: async () =>
      [...(await trackedChanges(dest))].filter((file) => !before.has(file) && !judged.has(file)),
    replaced: () =>
      watched.flatMap((file) => {
        const was = identities.get(file) ?? 'absent';
        const change = identityChange(was, identityOf(root, file));
        const name = typeof was === 'object' && was.isDirectory() ? `${file}/` : file;
        return change === undefined ? [] : [`${name} — ${change}`];
      }),
    release: () => undefined,
  };
};
