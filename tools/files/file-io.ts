import path from 'node:path';
import {
  readFileInside,
  removeFileInside,
  writeFileInside,
} from '../../src/workspace/repo/confined-fs.ts';
import { statInside } from '../../src/workspace/repo/confined-stat.ts';
import { decodeUtf8, looksBinary } from '../../src/util/text.ts';
import { relativeToWorkspace, resolveInsideWorkspace } from '../../src/workspace/repo/paths.ts';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** Files bigger than this are never loaded whole (read by range streams them). */
export const MAX_WHOLE_FILE_BYTES = 8 * 1024 * 1024;

/** Resolves a tool's path argument, refusing anything inside `.git`. */
export const checkPath = (workspace: string, candidate: string): Checked<string> => {
  const resolved = resolveInsideWorkspace(workspace, candidate);
  if (!resolved.ok) return { ok: false, error: resolved.error };
  const relative = relativeToWorkspace(workspace, resolved.path);
  // Any depth: a nested .git would give planted code a git configuration of its own.
  if (relative.split(path.sep).some((segment) => segment.toLowerCase() === '.git')) {
    return {
      ok: false,
      error: `${candidate} is inside a .git folder: regreen manages the repository's history itself, and no nested repository may be made`,
    };
  }
  return { ok: true, value: resolved.path };
};

/** Reads a whole text file for editing: refuses binary, non-UTF-8 and huge files, and symlinks on the way. */
export const readTextForEdit = (workspace: string, file: string): Promise<Checked<string>> =>
  Promise.resolve(readTextForEditSync(workspace, file));

const readTextForEditSync = (workspace: string, file: string): Checked<string> => {
  let bytes: Buffer;
  try {
    const info = statInside(workspace, file);
    if (!info)
      return {
        ok: false,
        error: `file not found: ${file}. Use list or search to find the right path`,
      };
    if (info.isDirectory()) return { ok: false, error: `${file} is a directory` };
    if (info.size > MAX_WHOLE_FILE_BYTES) {
      return {
        ok: false,
        error: `${file} is ${info.size} bytes, too large to edit whole: use apply_patch`,
      };
    }
    bytes = readFileInside(workspace, file);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  if (looksBinary(bytes))
    return {
      ok: false,
      error: `${file} is a binary file (${bytes.length} bytes): it cannot be edited as text`,
    };
  const text = decodeUtf8(bytes);
  if (text === undefined)
    return { ok: false, error: `${file} is not valid UTF-8 text: it cannot be edited safely` };
  return { ok: true, value: text };
};

/**
 * Writes through a temporary file and a rename in a folder held open by
 * descriptor (see confined-fs.ts), so a reader never sees half a file and a
 * symlink swapped in meanwhile is refused, never followed.
 */
export const atomicWrite = (workspace: string, file: string, content: string): Promise<void> => {
  try {
    writeFileInside(workspace, file, content);
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
};

/** One file of a multi-file change: its content before, and after. */
export interface FileChange {
  readonly path: string;
  readonly before: string;
  readonly after: string;
  /** The file did not exist: undoing the write removes it. */
  readonly created?: boolean;
}

/**
 * Writes every file of a change or none: each through a temporary file and a
 * rename; if one write fails, the files already written get their content
 * back. Returns the file that failed, with the error code and what was restored.
 */
export const writeAllOrNothing = async (
  workspace: string,
  changes: readonly FileChange[],
  afterEach: (file: string) => Promise<void> = () => Promise.resolve(),
): Promise<{ ok: true } | { ok: false; failed: string; code: string; restored: string[] }> => {
  const written: FileChange[] = [];
  for (const change of changes) {
    try {
      await atomicWrite(workspace, change.path, change.after);
      written.push(change);
      await afterEach(change.path);
    } catch (error) {
      const restored: string[] = [];
      for (const done of written.reverse()) {
        const undo = done.created
          ? Promise.resolve().then(() => removeFileInside(workspace, done.path))
          : atomicWrite(workspace, done.path, done.before);
        await undo.then(
          () => restored.push(done.path),
          () => undefined,
        );
      }
      return {
        ok: false,
        failed: change.path,
        code: (error as NodeJS.ErrnoException).code ?? 'error',
        restored,
      };
    }
  }
  return { ok: true };
};
