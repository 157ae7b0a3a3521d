import { closeSync, readSync } from 'node:fs';
import path from 'node:path';
import { decodeUtf8, looksBinary } from '../../util/text.ts';
import { openFileInside } from './confined-fs.ts';

export const CONTEXT_FILES = [
  'AGENTS.md',
  'CLAUDE.md',
  '.github/copilot-instructions.md',
  'CONTRIBUTING.md',
];
const MAX_CONTEXT_BYTES = 32 * 1024;

export interface ContextFile {
  readonly path: string;
  readonly text: string;
  readonly truncated: boolean;
}

/**
 * The repository's own instructions for agents: the first of CONTEXT_FILES
 * that exists inside the workspace (a symlink out of it is ignored), as text.
 * It is material written by the repository, not instructions to regreen.
 */
export const readContextFile = (workspace: string): ContextFile | undefined => {
  for (const name of CONTEXT_FILES) {
    try {
      // Through the confined reader: no link followed, a regular file only, its head alone read.
      const { fd, stats } = openFileInside(workspace, path.join(workspace, name));
      let bytes: Buffer;
      try {
        const head = Buffer.alloc(Math.min(stats.size, MAX_CONTEXT_BYTES + 1));
        bytes = head.subarray(0, readSync(fd, head, 0, head.length, 0));
      } finally {
        closeSync(fd);
      }
      if (looksBinary(bytes)) continue;
      const text =
        decodeUtf8(bytes.subarray(0, MAX_CONTEXT_BYTES)) ??
        bytes.subarray(0, MAX_CONTEXT_BYTES).toString('latin1');
      return { path: name, text, truncated: stats.size > MAX_CONTEXT_BYTES };
    } catch {
      continue;
    }
  }
  return undefined;
};
