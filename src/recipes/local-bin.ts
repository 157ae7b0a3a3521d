import { existsSync } from 'node:fs';
import path from 'node:path';

/** A tool installed in the workspace's node_modules/.bin, never fetched. */
export const localBin = (workspace: string, name: string): string | undefined => {
  const bin = path.join(workspace, 'node_modules', '.bin', name);
  return existsSync(bin) ? bin : undefined;
};

/** Workspace-relative files named in the output that exist (never a path outside). */
export const filesNamed = (workspace: string, candidates: readonly string[]): string[] =>
  [...new Set(candidates)]
    .map((file) => (path.isAbsolute(file) ? path.relative(workspace, file) : file))
    .filter((file) => file.length > 0 && !file.startsWith('..') && !path.isAbsolute(file))
    .filter((file) => existsSync(path.join(workspace, file)));
