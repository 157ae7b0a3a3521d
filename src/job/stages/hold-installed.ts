import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  lchownSync,
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

/**
 * One entry given to nobody: a file made read-only, a folder nobody's,
 * world-writable and sticky (new files may still be made there: a runner's
 * cache), each opened once without following a link; a link itself is given
 * to nobody too, and what it names is never touched.
 */
const hold = (full: string, isDirectory: boolean): void => {
  let fd: number;
  try {
    fd = openSync(
      full,
      constants.O_RDONLY |
        constants.O_NOFOLLOW |
        constants.O_NONBLOCK |
        (isDirectory ? constants.O_DIRECTORY : 0),
    );
  } catch {
    try {
      lchownSync(full, NOBODY, NOBODY);
    } catch {
      // A socket or a vanished entry: nothing the tests load.
    }
    return;
  }
  try {
    const stats = fstatSync(fd);
    fchownSync(fd, NOBODY, NOBODY);
    fchmodSync(fd, stats.isDirectory() ? 0o1777 : stats.mode & 0o555);
  } finally {
    closeSync(fd);
  }
};

const holdTree = (dir: string): number => {
  let held = 0;
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
      hold(full, entry.isDirectory());
      held += 1;
    }
  };
  walk(dir);
  hold(dir, true);
  return held + 1;
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
  return { trees, entries: trees.reduce((sum, tree) => sum + holdTree(tree), 0) };
};
