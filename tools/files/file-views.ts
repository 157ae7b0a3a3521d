import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { MAX_WHOLE_FILE_BYTES } from './file-io.ts';

/** A file's version: a hash of its content (its size and mtime when it is too large to hash). */
export const fileVersion = async (file: string): Promise<string | undefined> => {
  try {
    const info = await stat(file);
    if (info.size > MAX_WHOLE_FILE_BYTES) return `${info.size}:${info.mtimeMs}`;
    return createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  } catch {
    return undefined;
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

  async recordRead(file: string): Promise<void> {
    const version = await fileVersion(file);
    if (version === undefined) this.seen.delete(file);
    else this.seen.set(file, version);
  }

  /** An error message when the file changed under this agent, else undefined. */
  async checkWrite(file: string, shown: string): Promise<string | undefined> {
    const known = this.seen.get(file);
    if (known === undefined) return undefined;
    const current = await fileVersion(file);
    if (current === known) return undefined;
    return `${shown} changed since you last read it (another worker may have edited it): read it again, then redo your change`;
  }

  /** After this agent's own write, its view is the new content. */
  async recordWrite(file: string): Promise<void> {
    await this.recordRead(file);
  }
}
