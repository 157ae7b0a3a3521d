/**
 * Masks that do not depend on the host's files staying still. A mask is a
 * mount over a path, and bubblewrap makes a missing path before it mounts:
 * inside a read-only bind of `/etc` it cannot, so a masked file the host's
 * package manager renamed away meanwhile (dpkg unpacks each file as a
 * `.dpkg-new` of mode 0) failed every start of the sandbox. Here every folder
 * on the way from the bound root to a mask is made anew instead: a tmpfs of
 * the sandbox's own, each entry the host had there bound back with
 * `--ro-bind-try` (an entry gone meanwhile is skipped), the masks made in it
 * (a mask's path is created there whatever the host did), then sealed
 * read-only. An entry that appears on the host after the plan is not shown
 * until the next plan; one that vanishes is simply absent.
 */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { isAncestorOrSame, type Mount } from './mounts.ts';

/** At most this many entries of one remade folder are bound back (`/etc` holds a few hundred). */
const ENTRIES_PER_FOLDER = 4096;

/** A folder's entries as the host has them now; none when it cannot be listed (gone meanwhile). */
const entriesOf = (dir: string): string[] => {
  try {
    return readdirSync(dir).sort().slice(0, ENTRIES_PER_FOLDER);
  } catch {
    return [];
  }
};

/** One entry bound back into its remade folder: a link as the link it is, anything else by bind. */
const boundBack = (entry: string): Mount[] => {
  try {
    if (lstatSync(entry).isSymbolicLink())
      return [{ kind: 'symlink', source: readlinkSync(entry), target: entry }];
  } catch {
    return []; // gone meanwhile
  }
  return [{ kind: 'ro-try', source: entry, target: entry }];
};

/**
 * The host folder `root` remade so that no mount over a path of `targets` (a mask, a file of the
 * sandbox's own such as its `/etc/passwd`) needs that path to still exist: `made`, the remade
 * folders (`root` and every folder between it and a target) with their other entries bound back,
 * to mount before the mounts over the targets; `seals`, to mount after them.
 */
export const remadeFolder = (
  root: string,
  targets: readonly string[],
): { readonly made: Mount[]; readonly seals: Mount[] } => {
  const inside = targets.filter((target) => target !== root && isAncestorOrSame(root, target));
  const folders = new Set<string>([root]);
  for (const target of inside) {
    for (let dir = path.dirname(target); isAncestorOrSame(root, dir); dir = path.dirname(dir))
      folders.add(dir);
  }
  const over = new Set(inside);
  // Parents before children: a folder's tmpfs is made before the entries bound into it.
  const ordered = [...folders].sort((a, b) => a.split('/').length - b.split('/').length);
  const made: Mount[] = [];
  for (const folder of ordered) {
    made.push({ kind: 'folder', source: folder, target: folder });
    for (const name of entriesOf(folder)) {
      const entry = path.join(folder, name);
      if (!folders.has(entry) && !over.has(entry)) made.push(...boundBack(entry));
    }
  }
  const seals = ordered.map((folder): Mount => ({ kind: 'seal', source: folder, target: folder }));
  return { made, seals };
};
