import { createHash } from 'node:crypto';
import { closeSync, fstatSync } from 'node:fs';
import { openFileInside, readFileInsideUpTo } from '../../src/workspace/repo/confined-fs.ts';
import { MAX_WHOLE_FILE_BYTES } from './file-io.ts';

/**
 * A workspace file's version, read through the confined reader: a hash of its
 * content (its size and mtime when it is too large to hash).
 */
export const fileVersion = (workspace: string, file: string): Promise<string | undefined> => {
  try {
    const bytes = readFileInsideUpTo(workspace, file, MAX_WHOLE_FILE_BYTES);
    if (bytes) return Promise.resolve(createHash('sha256').update(bytes).digest('hex'));
    const { fd } = openFileInside(workspace, file);
    try {
      const info = fstatSync(fd);
      return Promise.resolve(`${info.size}:${info.mtimeMs}`);
    } finally {
      closeSync(fd);
    }
  } catch {
    return Promise.resolve(undefined);
  }
};

/**
 * What one agent (the job's, or one worker's) last saw of each file. A write
 * to a file that changed since this agent read it — another worker wrote it —
 * is refused with a message to read it again: compare-and-swap on the common
 * write path.
 */
export class FileViews {
  private readonly seen = new Map<string, string>();

  constructor(private readonly workspace: string) {}

  async recordRead(file: string): Promise<void> {
    const version = await fileVersion(this.workspace, file);
    if (version === undefined) this.seen.delete(file);
    else this.seen.set(file, version);
  }

  /** An error message when the file changed under this agent, else undefined. */
  async checkWrite(file: string, shown: string): Promise<string | undefined> {
    const known = this.seen.get(file);
    if (known === undefined) return undefined;
    const current = await fileVersion(this.workspace, file);
    if (current === known) return undefined;
    return `${shown} changed since you last read it (another worker may have edited it): read it again, then redo your change`;
  }

  /** After this agent's own write, its view is the new content. */
  async recordWrite(file: string): Promise<void> {
    await this.recordRead(file);
  }
}
