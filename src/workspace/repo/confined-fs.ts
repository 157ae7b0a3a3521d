import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  futimesSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/**
 * File access inside a workspace that code in the sandbox is changing at the
 * same time. A path checked once and opened later by name can be swapped in
 * between (a directory replaced by a symlink, `renameat2(RENAME_EXCHANGE)`),
 * so nothing here opens a path by name: the workspace root is opened once and
 * every component below it is opened relative to its parent's descriptor
 * (`/proc/self/fd/<dir>/<name>`, Node's stand-in for `openat`), with
 * `O_NOFOLLOW` — a symlink anywhere on the way is refused, not followed — and
 * what was opened is checked again through its descriptor.
 */

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;
export const at = (dirFd: number, name: string): string => `/proc/self/fd/${dirFd}/${name}`;

export class ConfinedPathError extends Error {
  override readonly name = 'ConfinedPathError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const fail = (message: string, code: string): never => {
  throw new ConfinedPathError(message, code);
};

/** The path's components below the workspace root; refuses `..`, `.git` and escapes. */
export const segmentsInside = (
  workspace: string,
  file: string,
  root = realpathSync(workspace),
): string[] => {
  const absolute = path.resolve(file);
  const relative = path.relative(root, absolute);
  const lexical = path.relative(path.resolve(workspace), absolute);
  const inside = (rel: string): boolean => !rel.startsWith('..') && !path.isAbsolute(rel);
  const chosen = inside(relative) ? relative : inside(lexical) ? lexical : undefined;
  if (chosen === undefined) return fail(`${file} is outside the workspace ${workspace}`, 'EXDEV');
  const segments = chosen.split(path.sep).filter((segment) => segment !== '' && segment !== '.');
  if (segments.some((segment) => segment === '..'))
    return fail(`${file} leaves the workspace`, 'EXDEV');
  if (segments.some((segment) => segment.toLowerCase() === '.git'))
    return fail(`${file} is inside a .git folder`, 'EACCES');
  return segments;
};

export const checkOpened = (fd: number, root: string, what: string): void => {
  const real = readlinkSync(`/proc/self/fd/${fd}`);
  const relative = path.relative(root, real);
  if (relative.startsWith('..') || path.isAbsolute(relative))
    fail(`${what} opened ${real}, outside the workspace: refused`, 'EXDEV');
};

/** Opens the directory holding `segments`' last component; creates missing ones when asked. */
const openParent = (workspace: string, segments: readonly string[], create: boolean): number => {
  const root = realpathSync(workspace);
  let dir = openSync(root, O_RDONLY | O_DIRECTORY);
  try {
    for (const segment of segments.slice(0, -1)) {
      let next: number;
      try {
        next = openSync(at(dir, segment), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
        if (code === 'ENOENT' && create) {
          mkdirSync(at(dir, segment));
          next = openSync(at(dir, segment), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        } else if (code === 'ELOOP' || code === 'ENOTDIR') {
          return fail(`${segment} on the way to the file is a symlink or not a folder`, 'ELOOP');
        } else {
          throw error;
        }
      }
      closeSync(dir);
      dir = next;
    }
    checkOpened(dir, root, 'the folder');
    return dir;
  } catch (error) {
    closeSync(dir);
    throw error;
  }
};

export const withParent = <T>(
  workspace: string,
  file: string,
  create: boolean,
  body: (dir: number, name: string) => T,
): T => {
  const segments = segmentsInside(workspace, file);
  const name = segments.at(-1);
  if (name === undefined) return fail(`${file} is the workspace itself, not a file`, 'EISDIR');
  const dir = openParent(workspace, segments, create);
  try {
    return body(dir, name);
  } finally {
    closeSync(dir);
  }
};

/** Opens a regular file inside the workspace for reading; the caller closes the descriptor. */
export const openFileInside = (workspace: string, file: string): { fd: number; stats: Stats } =>
  withParent(workspace, file, false, (dir, name) => {
    let fd: number;
    try {
      // O_NONBLOCK: a planted FIFO must not hang the tool.
      fd = openSync(at(dir, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP')
        return fail(`${file} is a symlink: refused`, 'ELOOP');
      throw error;
    }
    try {
      const stats = fstatSync(fd);
      if (stats.isDirectory()) fail(`${file} is a directory`, 'EISDIR');
      if (!stats.isFile()) fail(`${file} is not a regular file`, 'EINVAL');
      checkOpened(fd, realpathSync(workspace), file);
      return { fd, stats };
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  });

export const readAll = (fd: number, size: number, maxBytes = Number.POSITIVE_INFINITY): Buffer => {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.allocUnsafe(Math.min(Math.max(size, 1), 1 << 20) + 1);
  for (;;) {
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0 || total > maxBytes) break;
    chunks.push(Buffer.from(chunk.subarray(0, read)));
    total += read;
  }
  return Buffer.concat(chunks, total);
};

/** Reads a whole regular file inside the workspace. */
export const readFileInside = (workspace: string, file: string): Buffer => {
  const { fd, stats } = openFileInside(workspace, file);
  try {
    return readAll(fd, stats.size);
  } finally {
    closeSync(fd);
  }
};

/** The same, with one walk: undefined when the file is bigger than `maxBytes` (checked on the opened file). */
export const readFileInsideUpTo = (
  workspace: string,
  file: string,
  maxBytes: number,
): Buffer | undefined => {
  const { fd, stats } = openFileInside(workspace, file);
  try {
    if (stats.size > maxBytes) return undefined;
    const bytes = readAll(fd, stats.size, maxBytes);
    // It grew while being read: still too big.
    return bytes.length > maxBytes ? undefined : bytes;
  } finally {
    closeSync(fd);
  }
};

/** The entries of a folder inside the workspace (the workspace itself included), opened as above. */
export const listInside = (workspace: string, dir: string): Dirent[] => {
  const segments = segmentsInside(workspace, dir);
  const root = realpathSync(workspace);
  const open = (): number => {
    if (segments.length === 0) return openSync(root, O_RDONLY | O_DIRECTORY);
    return withParent(workspace, dir, false, (parent, name) => {
      try {
        return openSync(at(parent, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ELOOP')
          return fail(`${dir} is a symlink: refused`, 'ELOOP');
        throw error;
      }
    });
  };
  const fd = open();
  try {
    checkOpened(fd, root, dir);
    return readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true });
  } finally {
    closeSync(fd);
  }
};

/**
 * A file rewritten at its old size within the second of its old time looks
 * unchanged to whatever keys on size and whole seconds (Python's bytecode
 * cache: a fix the agent just made ran as the old code): its time moves one
 * second past the old one.
 */
const keepChangeSeen = (fd: number, before: Stats | undefined): void => {
  if (!before) return;
  const after = fstatSync(fd);
  const second = (ms: number): number => Math.floor(ms / 1000);
  if (after.size !== before.size || second(after.mtimeMs) !== second(before.mtimeMs)) return;
  futimesSync(fd, after.atime, new Date((second(before.mtimeMs) + 1) * 1000));
};

/**
 * Writes a file inside the workspace through a temporary file and a rename in
 * the same (descriptor-held) folder, so a reader never sees half a file and no
 * symlink on the way is followed. Missing folders are created the same way.
 */
export const writeFileInside = (
  workspace: string,
  file: string,
  content: string | Uint8Array,
): void =>
  withParent(workspace, file, true, (dir, name) => {
    let mode = 0o644;
    let before: Stats | undefined;
    try {
      const existing = openSync(at(dir, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
      try {
        const stats = fstatSync(existing);
        if (stats.isDirectory()) fail(`${file} is a directory`, 'EISDIR');
        if (!stats.isFile()) fail(`${file} is not a regular file`, 'EINVAL');
        // A rename would replace a read-only file (and root ignores modes): refuse it explicitly.
        if ((stats.mode & 0o222) === 0) fail(`${file} is read-only`, 'EACCES');
        mode = stats.mode & 0o7777;
        before = stats;
      } finally {
        closeSync(existing);
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') fail(`${file} is a symlink: refused`, 'ELOOP');
      if (code !== 'ENOENT') throw error;
    }
    const temp = `.regreen-${randomBytes(6).toString('hex')}.tmp`;
    const fd = openSync(at(dir, temp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
    try {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
      fchmodSync(fd, mode);
      keepChangeSeen(fd, before);
      closeSync(fd);
      renameSync(at(dir, temp), at(dir, name));
    } catch (error) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
      try {
        unlinkSync(at(dir, temp));
      } catch {
        // never created or already renamed
      }
      throw error;
    }
  });

/** Removes a file inside the workspace, its folder held by descriptor; a symlink is removed, never followed. */
export const removeFileInside = (workspace: string, file: string): void =>
  withParent(workspace, file, false, (dir, name) => {
    unlinkSync(at(dir, name));
  });

/** What a config or manifest read by the host may weigh: a larger file is not read. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * A text file inside the workspace, read without following any symlink, a
 * regular file only (a FIFO or device is refused, never waited on), at most
 * `maxBytes` (checked on the opened file and while reading: a file a sandboxed
 * process keeps growing is not read forever); undefined when it cannot be read.
 */
export const readTextInside = (
  workspace: string,
  file: string,
  maxBytes = MAX_CONFIG_BYTES,
): string | undefined => {
  try {
    return readFileInsideUpTo(workspace, file, maxBytes)?.toString('utf8');
  } catch {
    return undefined;
  }
};

/**
 * Opens a folder inside the workspace (`.git` allowed) for bubblewrap to bind by
 * descriptor, no link followed; undefined when missing. A link or a file on the
 * way is refused: a folder swapped for a link would have the sandbox mount the
 * host folder it names.
 */
export const openDirInside = (workspace: string, dir: string): number | undefined => {
  const relative = path.relative(path.resolve(workspace), path.resolve(dir));
  const segments = relative.split(path.sep).filter((segment) => segment !== '' && segment !== '.');
  if (relative.startsWith('..') || path.isAbsolute(relative) || segments.includes('..'))
    return fail(`${dir} is outside the workspace ${workspace}`, 'EXDEV');
  try {
    return openParent(workspace, [...segments, '.'], false);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};
