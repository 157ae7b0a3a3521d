import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { NOBODY } from '../../workspace/sandbox/identity.ts';
import { removeTree } from '../../util/discard.ts';

/**
 * Each judged run starts from what was there before the first: the failing
 * command and the test command run one after the other in one tree, with
 * one home and one tmp, and whatever the code under test makes in the first
 * would be there for the second to load — a `conftest.py` at the top (a
 * plugin of every later pytest), a `.pth` in a site folder (code run at every
 * Python start), a `~/.cargo/config.toml` naming a runner, an init script
 * Gradle applies, a runner's cache of transformed test files. So every entry
 * a run made (by name: what the walk before the runs did not see) is removed
 * before the next run.
 *
 * Walked without following a link, `.git` of the tree aside, and not into a
 * folder held closed (nobody's and not writable by others: nothing can be made
 * in it). Removed by GNU rm, which follows no link either (`removeTree`).
 * What a run changed in an entry that was there before is not undone: held
 * entries (the base's files, the installs, the build, regreen's own files in
 * the home) cannot be changed, and the rest is the sandbox's own: a setup's
 * output, a runner's state or cache (left open: see docs/checks.md).
 */
export interface RunStart {
  /** Removes what the runs made since the start was taken. Returns how many entries it removed. */
  readonly restore: () => number;
}

/** Whether nothing can be made in a folder by the sandbox: nobody's, not writable by others. */
const closed = (full: string): boolean => {
  try {
    const stats = lstatSync(full);
    return stats.uid === NOBODY && (stats.mode & 0o002) === 0;
  } catch {
    return true;
  }
};

const entriesOf = (root: string): Set<string> => {
  const found = new Set<string>();
  const walk = (dir: string, relative: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (relative === '' && entry.name === '.git') continue;
      const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
      found.add(rel);
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && !closed(full)) walk(full, rel);
    }
  };
  walk(root, '');
  return found;
};

/** The topmost entries under `root` that are not in `before` (a new folder once, not its files). */
const madeSince = (root: string, before: ReadonlySet<string>): string[] => {
  const made: string[] = [];
  const walk = (dir: string, relative: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (relative === '' && entry.name === '.git') continue;
      const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const full = path.join(dir, entry.name);
      if (!before.has(rel)) made.push(full);
      else if (entry.isDirectory() && !closed(full)) walk(full, rel);
    }
  };
  walk(root, '');
  return made;
};

/** Takes the start of the judged runs in each folder (the tree, the sandbox's home and tmp). */
export const takeRunStart = (roots: readonly string[]): RunStart => {
  const starts = roots.map((root) => ({ root, before: entriesOf(root) }));
  return {
    restore: () => {
      const made = starts.flatMap(({ root, before }) => madeSince(root, before));
      removeTree(...made);
      return made.length;
    },
  };
};
