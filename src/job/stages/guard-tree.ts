import { chmodSync, chownSync, lchownSync, lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { hostGitSync } from '../../workspace/repo/git.ts';

/** The owner the guarded files get: not the sandbox's (nobody), so it can neither write nor chmod them. */
const NOBODY = 65_534;

/** Tracked paths the working tree differs in from HEAD (modified, deleted, type changed). */
export const trackedChanges = (dest: string): Set<string> => {
  // Host git takes a tree of another owner's as safe (SAFE_GIT_CONFIG).
  const out = hostGitSync(['status', '--porcelain', '-z', '--untracked-files=no', '--no-renames'], {
    cwd: dest,
  }).toString('utf8');
  return new Set(
    out
      .split('\0')
      .filter((entry) => entry.length > 3)
      .map((entry) => entry.slice(3)),
  );
};

/** A guard on a tree's tests and harness for the judging runs, and what it found after them. */
export interface TreeGuard {
  /** Whether the files were made unwritable (regreen runs as root); else only checked after. */
  readonly enforced: boolean;
  /** Tracked files outside the judged change that differ now and did not before the runs. */
  readonly changed: () => readonly string[];
  /** Ends the guard (the tree's files stay as they are: the tree is discarded with the job). */
  readonly release: () => void;
}

/**
 * Holds the base's tests and harness still while the judged change runs: the
 * code under test runs in the same process as the tests, and could rewrite a
 * test file before its runner reads it. Every tracked file the judged change
 * does not touch is given to nobody and made read-only, and each folder that
 * holds one (below the top folder, which git needs to be the sandbox's)
 * becomes nobody's, world-writable and sticky: the sandbox can still create
 * files there (caches, bytecode), but can neither write, chmod, delete nor
 * rename a guarded one; a file at the top can be neither written nor chmodded.
 * Only where regreen runs as root (who else could chown); everywhere, the
 * tracked files are compared after the runs with what they were before them. Paths are checked to resolve inside the tree first:
 * the setup that ran there may have planted links.
 */
export const guardTree = (
  dest: string,
  judged: ReadonlySet<string>,
  isRoot = process.getuid?.() === 0,
): TreeGuard => {
  const before = trackedChanges(dest);
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
      if (stats.isSymbolicLink()) lchownSync(full, NOBODY, NOBODY);
      else if (stats.isFile()) {
        chownSync(full, NOBODY, NOBODY);
        chmodSync(full, stats.mode & 0o555);
      } else continue;
      // The top folder stays the sandbox's: git (in the suite, in setuptools-scm) refuses a
      // work tree whose top is another user's. Its files are still nobody's and read-only.
      for (
        let dir = parent;
        dir !== root && dir.startsWith(`${root}${path.sep}`);
        dir = path.dirname(dir)
      )
        folders.add(dir);
    }
    for (const dir of folders) {
      chownSync(dir, NOBODY, NOBODY);
      chmodSync(dir, 0o1777);
    }
  }
  return {
    enforced: isRoot,
    changed: () =>
      [...trackedChanges(dest)].filter((file) => !before.has(file) && !judged.has(file)),
    release: () => undefined,
  };
};
