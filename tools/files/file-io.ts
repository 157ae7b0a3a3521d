import { open, rename, stat, writeFile, mkdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { decodeUtf8, looksBinary } from '../../src/util/text.ts';
import { relativeToWorkspace, resolveInsideWorkspace } from '../../src/workspace/paths.ts';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** Files bigger than this are never loaded whole (read by range streams them). */
export const MAX_WHOLE_FILE_BYTES = 8 * 1024 * 1024;

/** Resolves a tool's path argument, refusing anything inside `.git`. */
export const checkPath = (workspace: string, candidate: string): Checked<string> => {
  const resolved = resolveInsideWorkspace(workspace, candidate);
  if (!resolved.ok) return { ok: false, error: resolved.error };
  const relative = relativeToWorkspace(workspace, resolved.path);
  if (relative === '.git' || relative.startsWith(`.git${path.sep}`)) {
    return {
      ok: false,
      error: `${candidate} is inside .git: regreen manages the repository's history itself`,
    };
  }
  return { ok: true, value: resolved.path };
};

/** Reads a whole text file for editing: refuses binary, non-UTF-8 and huge files. */
export const readTextForEdit = async (file: string): Promise<Checked<string>> => {
  let size: number;
  try {
    const info = await stat(file);
    if (info.isDirectory()) return { ok: false, error: `${file} is a directory` };
    size = info.size;
  } catch {
    return {
      ok: false,
      error: `file not found: ${file}. Use list or search to find the right path`,
    };
  }
  if (size > MAX_WHOLE_FILE_BYTES) {
    return {
      ok: false,
      error: `${file} is ${size} bytes, too large to edit whole: use apply_patch`,
    };
  }
  const handle = await open(file, 'r');
  try {
    const bytes = await handle.readFile();
    if (looksBinary(bytes))
      return {
        ok: false,
        error: `${file} is a binary file (${size} bytes): it cannot be edited as text`,
      };
    const text = decodeUtf8(bytes);
    if (text === undefined)
      return { ok: false, error: `${file} is not valid UTF-8 text: it cannot be edited safely` };
    return { ok: true, value: text };
  } finally {
    await handle.close();
  }
};

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
export const atomicWrite = async (file: string, content: string): Promise<void> => {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.regreen-${randomBytes(6).toString('hex')}.tmp`);
  try {
    let mode: number | undefined;
    try {
      mode = (await stat(file)).mode;
    } catch {
      mode = undefined;
    }
    // A rename would replace a read-only file (and root ignores modes): refuse it explicitly.
    if (mode !== undefined && (mode & 0o222) === 0) {
      throw Object.assign(new Error(`${file} is read-only`), { code: 'EACCES' });
    }
    await writeFile(temp, content, mode === undefined ? {} : { mode });
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
};

/** One file of a multi-file change: its content before, and after. */
export interface FileChange {
  readonly path: string;
  readonly before: string;
  readonly after: string;
}

/**
 * Writes every file of a change or none: each through a temporary file and a
 * rename; if one write fails, the files already written get their content
 * back. Returns the file that failed, with the error code and what was restored.
 */
export const writeAllOrNothing = async (
  changes: readonly FileChange[],
  afterEach: (file: string) => Promise<void> = () => Promise.resolve(),
): Promise<{ ok: true } | { ok: false; failed: string; code: string; restored: string[] }> => {
  const written: FileChange[] = [];
  for (const change of changes) {
    try {
      await atomicWrite(change.path, change.after);
      written.push(change);
      await afterEach(change.path);
    } catch (error) {
      const restored: string[] = [];
      for (const done of written.reverse()) {
        await atomicWrite(done.path, done.before).then(
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
