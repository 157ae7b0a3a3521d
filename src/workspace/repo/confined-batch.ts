/**
 * The confined reader (`confined-fs.ts`) for many files at once: the
 * workspace is opened once and each folder on the way once for the whole
 * batch, from its parent's descriptor without following a link, and checked
 * through its descriptor; each file is then opened from its folder's
 * descriptor without following a link, exactly as one file alone is. A
 * folder-wide search reads hundreds of files: walking from the root for each
 * opened the same folders again and again.
 */
import { closeSync, constants, fstatSync, openSync, realpathSync } from 'node:fs';
import { at, checkOpened, readAll, segmentsInside } from './confined-fs.ts';

const { O_RDONLY, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

/**
 * Each file's bytes, in the order asked; undefined for one that is absent,
 * not a regular file, a link or behind one, outside the workspace, inside
 * `.git`, or bigger than `maxBytes` (checked on the opened file, and again on
 * what was read). The whole batch reads at most `totalBytes`: a file that
 * would go past it is not read (`overBudget` counts them) — sandboxed code
 * can make thousands of names for one big file (hard links), each within
 * the per-file cap.
 */
export const readFilesInside = (
  workspace: string,
  files: readonly string[],
  limits: { readonly maxBytes: number; readonly totalBytes: number },
): { bytes: (Buffer | undefined)[]; overBudget: number } => {
  const { maxBytes } = limits;
  let budget = limits.totalBytes;
  let overBudget = 0;
  const root = realpathSync(workspace);
  /** Each folder's descriptor by its path below the root; undefined: it cannot be opened so. */
  const folders = new Map<string, number | undefined>();
  const opened: number[] = [];
  const folder = (segments: readonly string[]): number | undefined => {
    const key = segments.join('/');
    if (folders.has(key)) return folders.get(key);
    let fd: number | undefined;
    try {
      if (segments.length === 0) fd = openSync(root, O_RDONLY | O_DIRECTORY);
      else {
        const parent = folder(segments.slice(0, -1));
        if (parent !== undefined)
          fd = openSync(at(parent, segments.at(-1) ?? ''), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      }
      if (fd !== undefined) {
        opened.push(fd);
        checkOpened(fd, root, key || 'the workspace');
      }
    } catch {
      fd = undefined; // a link, a file or nothing on the way
    }
    folders.set(key, fd);
    return fd;
  };
  const readOne = (file: string): Buffer | undefined => {
    let fd: number | undefined;
    try {
      const segments = segmentsInside(workspace, file, root);
      const name = segments.at(-1);
      const dir = folder(segments.slice(0, -1));
      if (name === undefined || dir === undefined) return undefined;
      // O_NONBLOCK: a planted FIFO must not hang the reader.
      fd = openSync(at(dir, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
      const stats = fstatSync(fd);
      if (!stats.isFile() || stats.size > maxBytes) return undefined;
      if (stats.size > budget) {
        overBudget += 1;
        return undefined;
      }
      // What is read, not what was stated: a file that grows is bounded by the budget too.
      const bytes = readAll(fd, stats.size, Math.min(maxBytes, budget));
      if (bytes.length > Math.min(maxBytes, budget)) {
        if (bytes.length <= maxBytes) overBudget += 1;
        return undefined;
      }
      budget -= bytes.length;
      return bytes;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  };
  try {
    return { bytes: files.map(readOne), overBudget };
  } finally {
    for (const fd of opened) closeSync(fd);
  }
};
