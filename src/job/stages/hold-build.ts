import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { BuildKind } from './build-first.ts';
import { type HeldEntry, type HoldRules, hold, holdTree, release } from './hold-installed.ts';

/**
 * Where each build tool puts what its tests run, beside the file that makes
 * a folder its project, and how it is held (`hold-installed.ts`'s `hold`):
 *
 * - cargo: all of its target folder (`target/`, or wherever `--target-dir`
 *   put it in the tree: found by what cargo makes at its top), every file
 *   read-only and nobody's but the build lock (`.cargo-lock`), which cargo
 *   opens for writing even when everything is fresh; its folders closed
 *   (cargo puts the profile's folders first on a test binary's library
 *   path: a new `libgcc_s.so.1` there would be loaded, attack6) but for
 *   `tmp/`, the tests' `CARGO_TARGET_TMPDIR`, world-writable and sticky.
 * - Gradle: `build/classes` and `build/resources`, whose folders nobody may
 *   add to either (a new class file in the test classes' folder would come
 *   before the test library's on the class path); Gradle finds its outputs
 *   up to date and writes none.
 * - Maven: the `.class` files of `target/classes` and `target/test-classes`.
 *   Their resources are copied again by every `mvn` run (the resources
 *   plugin replaces each file), so a folder holding a resource stays
 *   writable and sticky, and only one holding class files alone is closed.
 */
interface OutputRule {
  readonly kind: BuildKind;
  /** Whether a folder, by the files it has, is a project of the tool (cargo's: its target folder). */
  readonly project: (names: ReadonlySet<string>) => boolean;
  /** The folders of a project holding its build's outputs (`.`: the folder itself). */
  readonly outputs: readonly string[];
  /** How an output folder is held, by its path. */
  readonly rules: (output: string) => HoldRules;
}

const isClass = (name: string): boolean => name.endsWith('.class');

/**
 * Cargo's target folder, whatever its name or place (`--target-dir`): what
 * cargo makes at its top (its cache tag, and a profile's folder or its rustc
 * cache; older cargo writes no rustc cache).
 */
const isCargoTarget = (names: ReadonlySet<string>): boolean =>
  names.has('CACHEDIR.TAG') &&
  (names.has('.rustc_info.json') || names.has('debug/') || names.has('release/'));

const OUTPUTS: readonly OutputRule[] = [
  {
    kind: 'cargo',
    project: isCargoTarget,
    outputs: ['.'],
    rules: (output) => ({
      file: (name) => name !== '.cargo-lock',
      // Closed but for `tmp/` (the tests' `CARGO_TARGET_TMPDIR`): cargo puts the profile's folders
      // first on a test binary's library path, so a new library there would be loaded (attack6).
      folderMode: (_entries, folder) =>
        path.relative(output, folder).split(path.sep)[0] === 'tmp' ? 0o1777 : 0o755,
    }),
  },
  {
    kind: 'gradle',
    project: (names) => names.has('build.gradle') || names.has('build.gradle.kts'),
    outputs: ['build/classes', 'build/resources'],
    rules: () => ({ folderMode: () => 0o755 }),
  },
  {
    kind: 'maven',
    project: (names) => names.has('pom.xml'),
    outputs: ['target/classes', 'target/test-classes'],
    rules: () => ({
      file: isClass,
      folderMode: (entries: readonly Dirent[]) =>
        entries.every((entry) => entry.isDirectory() || isClass(entry.name)) ? 0o755 : 0o1777,
    }),
  },
];

/** Folders the walk for projects does not enter: never a project's own. */
const SKIPPED = new Set(['.git', 'node_modules', '.gradle']);
/** Folders it looks at but does not walk: a build's outputs (a cargo target among them). */
const OUTPUT_NAMES = new Set(['target', 'build']);

/** Each folder of the tree that may be a project, with the files it has, found without following a link. */
const projectFolders = (root: string): { dir: string; names: Set<string> }[] => {
  const found: { dir: string; names: Set<string> }[] = [];
  const walk = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    // Files by name, folders by name and a slash.
    const names = new Set(
      entries
        .filter((e) => e.isFile() || e.isDirectory())
        .map((e) => (e.isDirectory() ? `${e.name}/` : e.name)),
    );
    found.push({ dir, names });
    if (depth >= 8 || isCargoTarget(names) || OUTPUT_NAMES.has(path.basename(dir))) return;
    for (const entry of entries)
      if (entry.isDirectory() && !SKIPPED.has(entry.name))
        walk(path.join(dir, entry.name), depth + 1);
  };
  walk(root, 0);
  return found;
};

/** A real folder at `full`, no link on the way from the project folder. */
const isFolder = (dir: string, relative: string): boolean => {
  let at = dir;
  for (const part of relative === '.' ? [] : relative.split('/')) {
    at = path.join(at, part);
    try {
      if (!lstatSync(at).isDirectory()) return false;
    } catch {
      return false;
    }
  }
  return true;
};

export interface HeldBuild {
  /** The output folders held, relative to the tree. */
  readonly folders: readonly string[];
  /**
   * The tree's top entries they are in (`target`, `build`): the top folder is
   * the sandbox's, which may rename any entry of it, so the runs bind these
   * onto themselves (`SandboxRunRequest.hold`), as the guard's.
   */
  readonly mounts: readonly string[];
  /** How many entries they had. */
  readonly entries: number;
  /** Gives every held entry back to whom it was (the change's own tests may build again). */
  readonly release: () => void;
}

/**
 * Holds still what the build first made (`build-first.ts`) for the tools it
 * ran, while the judged commands run: only where regreen is root (who else
 * could give files away), and while nothing runs in the tree.
 */
export const holdBuild = (
  root: string,
  kinds: ReadonlySet<BuildKind>,
  isRoot = process.getuid?.() === 0,
): HeldBuild => {
  if (!isRoot) return { folders: [], mounts: [], entries: 0, release: () => undefined };
  const rules = OUTPUTS.filter((rule) => kinds.has(rule.kind));
  const folders: string[] = [];
  const held: HeldEntry[] = [];
  const between = new Set<string>();
  for (const { dir, names } of projectFolders(root))
    for (const rule of rules) {
      if (!rule.project(names)) continue;
      for (const output of rule.outputs) {
        const full = path.join(dir, output);
        if (full === root || !isFolder(dir, output)) continue;
        folders.push(path.relative(root, full));
        held.push(...holdTree(full, rule.rules(full)));
        // The folders on the way (`target` of `target/classes`, a sub-project's own): nobody's and
        // sticky, so that the sandbox cannot rename a held folder away and put another in its place.
        for (
          let up = path.dirname(full);
          up.startsWith(`${root}${path.sep}`);
          up = path.dirname(up)
        )
          if (!between.has(up)) {
            between.add(up);
            const entry = hold(up, true);
            if (entry) held.push(entry);
          }
      }
    }
  const mounts = [...new Set(folders.map((folder) => path.join(root, folder.split('/')[0] ?? '')))];
  return { folders, mounts, entries: held.length, release: () => release(held) };
};
