import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  realpathSync,
  type BigIntStats,
  type Stats,
} from 'node:fs';
import { at, segmentsInside, withParent } from './confined-fs.ts';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = constants;

/**
 * The lstat of what is at `file` inside the workspace — a link is described,
 * never followed, and nothing is opened (no FIFO waited on, no atime touched) —
 * its folder reached by descriptor as the confined reader reaches it
 * (`confined-fs.ts`); undefined when absent. Nanosecond times (`bigint`): a
 * file replaced and put back within a millisecond is still another file.
 */
export const lstatInside = (workspace: string, file: string): BigIntStats | undefined => {
  const segments = segmentsInside(workspace, file);
  try {
    if (segments.length === 0) return lstatSync(realpathSync(workspace), { bigint: true });
    return withParent(workspace, file, false, (dir, name) =>
      lstatSync(`/proc/self/fd/${dir}/${name}`, { bigint: true }),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

/**
 * Whether something is at `file` inside the workspace, asked without
 * following any link on the way or at the end: a committed link to a host
 * path answers false, so no existence question about the host can be asked
 * through it.
 */
export const existsInside = (workspace: string, file: string): boolean => {
  try {
    return statInside(workspace, file) !== undefined;
  } catch {
    return false;
  }
};

/** Stats of what is at `file` inside the workspace (a file or folder), or undefined when absent. */
export const statInside = (workspace: string, file: string): Stats | undefined => {
  const segments = segmentsInside(workspace, file);
  if (segments.length === 0) return fstatRoot(workspace);
  try {
    return withParent(workspace, file, false, (dir, name) => {
      const fd = openSync(at(dir, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
      try {
        return fstatSync(fd);
      } finally {
        closeSync(fd);
      }
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

const fstatRoot = (workspace: string): Stats => {
  const fd = openSync(realpathSync(workspace), O_RDONLY | O_DIRECTORY);
  try {
    return fstatSync(fd);
  } finally {
    closeSync(fd);
  }
};
