import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Finds an executable on PATH. */
export type Which = (name: string) => string | undefined;

export const whichIn =
  (pathVariable: string | undefined): Which =>
  (name) => {
    for (const dir of (pathVariable ?? '').split(path.delimiter).filter(Boolean)) {
      const candidate = path.join(dir, name);
      try {
        // No exception for the usual answer (not here): several commands look up several names a start.
        if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
      } catch {
        // not a folder, or not ours to read
      }
    }
    return undefined;
  };

/** The names in the folders of PATH that match, folder by folder (the operator's PATH, a host read). */
export const namesOnPath = (
  pathVariable: string | undefined,
  matches: (name: string) => boolean,
): { dir: string; names: string[] }[] =>
  (pathVariable ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .flatMap((dir) => {
      try {
        return [{ dir, names: readdirSync(dir).filter(matches) }];
      } catch {
        return [];
      }
    });
