import { realpathSync } from 'node:fs';
import path from 'node:path';

export type ResolvedPath = { ok: true; path: string } | { ok: false; error: string };

const isInside = (root: string, candidate: string): boolean => {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** realpath of the nearest existing ancestor, with the missing tail appended. */
const realpathAllowingMissing = (target: string): string => {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const parent = path.dirname(current);
      if (parent === current) return target;
      missing.push(path.basename(current));
      current = parent;
    }
  }
};

/**
 * Resolves a path a tool was given: it must be absolute and must stay inside
 * the workspace after `..` and every symlink are resolved (paths that do not
 * exist yet are resolved through their nearest existing parent).
 */
export const resolveInsideWorkspace = (workspace: string, candidate: string): ResolvedPath => {
  if (typeof candidate !== 'string' || candidate.length === 0) {
    return { ok: false, error: 'path is empty: give an absolute path inside the workspace' };
  }
  if (candidate.includes('\0')) return { ok: false, error: 'path contains a NUL byte' };
  if (!path.isAbsolute(candidate)) {
    return {
      ok: false,
      error: `path must be absolute: "${candidate}" is relative; use ${path.join(workspace, candidate)}`,
    };
  }
  const root = realpathSync(workspace);
  const lexical = path.resolve(candidate);
  const lexicalRoot = path.resolve(workspace);
  if (!isInside(lexicalRoot, lexical) && !isInside(root, lexical)) {
    return { ok: false, error: `path is outside the workspace ${workspace}: ${candidate}` };
  }
  let real: string;
  try {
    real = realpathAllowingMissing(lexical);
  } catch (error) {
    return { ok: false, error: `cannot resolve ${candidate}: ${(error as Error).message}` };
  }
  if (!isInside(root, real)) {
    return {
      ok: false,
      error: `path escapes the workspace through a symlink: ${candidate} resolves to ${real}`,
    };
  }
  return { ok: true, path: real };
};

/** The workspace-relative form of a resolved path, for messages and diffs. */
export const relativeToWorkspace = (workspace: string, absolute: string): string => {
  const root = realpathSync(workspace);
  return path.relative(root, absolute) || '.';
};
