import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { decodeUtf8, looksBinary } from '../util/text.ts';
import { resolveInsideWorkspace } from './paths.ts';

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
    const resolved = resolveInsideWorkspace(workspace, path.join(workspace, name));
    if (!resolved.ok) continue;
    try {
      if (!statSync(resolved.path).isFile()) continue;
      const bytes = readFileSync(resolved.path);
      if (looksBinary(bytes)) continue;
      const text =
        decodeUtf8(bytes.subarray(0, MAX_CONTEXT_BYTES)) ??
        bytes.subarray(0, MAX_CONTEXT_BYTES).toString('latin1');
      return { path: name, text, truncated: bytes.length > MAX_CONTEXT_BYTES };
    } catch {
      continue;
    }
  }
  return undefined;
};
