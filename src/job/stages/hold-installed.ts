import {
  type Dirent,
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  lchownSync,
  lstatSync,
  openSync,
  readdirSync,
} from 'node:fs';
import path from 'node:path';
import { NOBODY } from '../../workspace/sandbox/identity.ts';
import { PROJECT_VENV } from '../../workspace/setup/interpreters.ts';

/**
 * Where a set-up installs what the tests load: a package manager's
 * `node_modules` (any depth: a workspace's packages have their own) and the
 * project's venv regreen's set-up makes. Their files are the base's harness
 * as much as its tracked files are: code under test that rewrote an installed
 * assertion helper before a later test file loaded it would pass any test.
 */
const isInstallTree = (relative: string, name: string): boolean =>
  name === 'node_modules' || relative === PROJECT_VENV;

/** Each install tree of a fresh tree, found without following a link. */
const installTrees = (root: string): string[] => {
  const found: string[] = [];
  const walk = (dir: string, relative: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === '.git') continue;
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (isInstallTree(rel, entry.name)) found.push(path.join(dir, entry.name));
      else walk(path.join(dir, entry.name), rel);
    }
  };
  walk(root, '');
  return found;
};

/** What an entry was before it was held: what `release` gives back. */
export interface HeldEntry {
  readonly full: string;
  readonly uid: number;
  readonly gid: number;
  /** Its permission bits; undefined for a link (only its owner changed). */
  readonly mode: number | undefined;
}

const openNoFollow = (full: string, isDirectory: boolean): number =>
  openSync(
    full,
    constants.O_RDONLY |
      constants.O_NOFOLLOW |
      constants.O_NONBLOCK |
      (isDirectory ? constants.O_DIRECTORY : 0),
  );

/**
 * One entry given to nobody: a file made read-only, a folder nobody's with
 * `folderMode` (world-writable and sticky by default: new files may still be
 * made there, a runner's cache, but no held one replaced), each opened once
 * without following a link; a link itself is given to nobody too, and what it
 * names is never touched. Returns what the entry was, undefined when it is
 * gone or not a file, folder or link.
 */
export const hold = (
  full: string,
  isDirectory: boolean,
  folderMode = 0o1777,
): HeldEntry | undefined => {
  let fd: number;
  try {
    fd = openNoFollow(full, isDirectory);
  } catch {
    try {
      const stats = lstatSync(full);
      if (!stats.isSymbolicLink()) return undefined;
      lchownSync(full, NOBODY, NOBODY);
      return { full, uid: stats.uid, gid: stats.gid, mode: undefined };
    } catch {
      // A socket or a vanished entry: nothing the tests load.
      return undefined;
    }
  }
  try {
    const stats = fstatSync(fd);
    fchownSync(fd, NOBODY, NOBODY);
    fchmodSync(fd, stats.isDirectory() ? folderMode : stats.mode & 0o555);
    return { full, uid: stats.uid, gid: stats.gid, mode: stats.mode & 0o7777 };
  } finally {
    closeSync(fd);
  }
};

/** Gives held entries back as they were, each opened once without following a link (regreen is root). */
export const release = (entries: readonly HeldEntry[]): void => {
  for (const entry of entries) {
    try {
      if (entry.mode === undefined) {
        lchownSync(entry.full, entry.uid, entry.gid);
        continue;
      }
      const fd = openNoFollow(entry.full, false);
      try {
        fchownSync(fd, entry.uid, entry.gid);
        fchmodSync(fd, entry.mode);
      } finally {
        closeSync(fd);
      }
    } catch {
      // Gone, or now a link: nothing of the host's to give back.
    }
  }
};

/** How a tree is held: which files, and each folder's mode from its entries. */
export interface HoldRules {
  /** Whether a file (not a folder) is held; a file left alone stays the sandbox's to replace. */
  readonly file?: (name: string) => boolean;
  /** The mode a held folder gets, from its entries and its path (world-writable and sticky by default). */
  readonly folderMode?: (entries: readonly Dirent[], folder: string) => number;
}

/** Every entry of a tree, the tree itself too, held by the rules, found without following a link. */
export const holdTree = (dir: string, rules: HoldRules = {}): HeldEntry[] => {
  const held: HeldEntry[] = [];
  const keep = (entry: HeldEntry | undefined): void => {
    if (entry) held.push(entry);
  };
  const walk = (folder: string): void => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (rules.file?.(entry.name) ?? true) keep(hold(full, false));
    }
    keep(hold(folder, true, rules.folderMode?.(entries, folder)));
  };
  walk(dir);
  return held;
};

/**
 * Holds what the set-up installed in a fresh tree still while the judged
 * change runs, as `guardTree` holds the tracked files: only where regreen
 * runs as root (who else could give files away). Returns the install trees
 * held and how many entries they had.
 */
export const holdInstalled = (
  root: string,
  isRoot = process.getuid?.() === 0,
): { trees: string[]; entries: number } => {
  if (!isRoot) return { trees: [], entries: 0 };
  const trees = installTrees(root);
  return {
    trees,
    entries: trees.reduce((sum, tree) => sum + holdTree(tree, installRules(tree)).length, 0),
  };
};

/** The caches runners keep in `node_modules` (babel-loader's, nyc's, Vite's and Vitest's). */
const NODE_CACHES = new Set(['.cache', '.vite', '.vitest']);

/**
 * How an install tree's folders are held: closed (nothing can be made in
 * them: a new `.pth` in a site folder is code every later Python start runs,
 * a new package or `.bin` entry shadows one looked up elsewhere), but for the
 * top of a `node_modules` and the runners' caches in it, which stay
 * world-writable and sticky (what a run makes there is removed before the
 * next, `between-runs.ts`).
 */
const installRules = (tree: string): HoldRules => ({
  folderMode: (_entries, folder) => {
    if (path.basename(tree) !== 'node_modules') return 0o755;
    const inside = path.relative(tree, folder).split(path.sep)[0] ?? '';
    return inside === '' || NODE_CACHES.has(inside) ? 0o1777 : 0o755;
  },
});

/**
 * Holds regreen's own files in the sandbox's home still through the judged
 * runs (Gradle's report listener, `~/.mavenrc`, `.npmrc`, `pip.conf`,
 * Maven's settings: code or configuration every later command reads): each
 * nobody's and read-only, each folder on the way up to the home itself
 * nobody's and sticky (new files may be made there, but no held one moved
 * away or replaced). Only as root; returns what to give back.
 */
export const holdHomeFiles = (
  home: string,
  files: readonly string[],
  isRoot = process.getuid?.() === 0,
): HeldEntry[] => {
  if (!isRoot) return [];
  const held: HeldEntry[] = [];
  const folders = new Set<string>([home]);
  for (const file of files) {
    const entry = hold(path.join(home, file), false);
    if (entry) held.push(entry);
    for (let dir = path.dirname(file); dir !== '.' && dir !== ''; dir = path.dirname(dir))
      folders.add(path.join(home, dir));
  }
  for (const folder of folders) {
    const entry = hold(folder, true);
    if (entry) held.push(entry);
  }
  return held;
};
