import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';

export type ResolvedPath = { ok: true; path: string } | { ok: false; error: string };

const isInside = (root: string, candidate: string): boolean => {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;
const at = (dirFd: number, name: string): string => `/proc/self/fd/${dirFd}/${name}`;

/** How many links one path may pass through (the kernel's own bound). */
const MAX_LINKS = 40;

/**
 * Resolves `segments` below `root` as the kernel would, touching nothing
 * outside the workspace: each folder is opened relative to its parent's
 * descriptor without following a link, a link is read (its text is the
 * workspace's own) and resolved by its text, and one that leads outside is
 * refused before anything there is looked at — so no answer tells what
 * exists outside (the sandbox may plant a link to any host folder).
 */
const resolveBelow = (
  root: string,
  segments: readonly string[],
  candidate: string,
): ResolvedPath => {
  let pending = [...segments];
  let walked: string[] = [];
  let dir = openSync(root, O_RDONLY | O_DIRECTORY);
  let links = 0;
  try {
    while (pending.length > 0) {
      const name = pending.shift() ?? '';
      if (name === '' || name === '.') continue;
      if (name === '..') {
        if (walked.length === 0)
          return { ok: false, error: `path is outside the workspace: ${candidate}` };
        // Back up by walking again from the root: no descriptor is reopened by name upward.
        pending = [...walked.slice(0, -1), ...pending];
        walked = [];
        closeSync(dir);
        dir = openSync(root, O_RDONLY | O_DIRECTORY);
        continue;
      }
      let stats: Stats;
      try {
        stats = lstatSync(at(dir, name));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT')
          return { ok: true, path: path.join(root, ...walked, name, ...pending) };
        return { ok: false, error: `cannot resolve ${candidate}: ${code ?? 'error'} at ${name}` };
      }
      if (stats.isSymbolicLink()) {
        links += 1;
        if (links > MAX_LINKS)
          return { ok: false, error: `cannot resolve ${candidate}: too many symlinks` };
        const text = readlinkSync(at(dir, name));
        const target = path.resolve(path.join(root, ...walked), text);
        if (!isInside(root, target))
          return {
            ok: false,
            error: `path escapes the workspace through a symlink: ${path.join(...walked, name)} links outside it`,
          };
        pending = [...path.relative(root, target).split(path.sep).filter(Boolean), ...pending];
        walked = [];
        closeSync(dir);
        dir = openSync(root, O_RDONLY | O_DIRECTORY);
        continue;
      }
      if (pending.length === 0) return { ok: true, path: path.join(root, ...walked, name) };
      if (!stats.isDirectory())
        return { ok: false, error: `cannot resolve ${candidate}: ${name} is not a folder` };
      let next: number;
      try {
        next = openSync(at(dir, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (error) {
        // Swapped for a link or a file since it was looked at.
        return {
          ok: false,
          error: `cannot resolve ${candidate}: ${name} changed while it was resolved (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        };
      }
      closeSync(dir);
      dir = next;
      walked.push(name);
    }
    return { ok: true, path: path.join(root, ...walked) };
  } finally {
    closeSync(dir);
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
  const base = isInside(lexicalRoot, lexical)
    ? lexicalRoot
    : isInside(root, lexical)
      ? root
      : undefined;
  if (base === undefined) {
    return { ok: false, error: `path is outside the workspace ${workspace}: ${candidate}` };
  }
  return resolveBelow(root, path.relative(base, lexical).split(path.sep), candidate);
};

/** The workspace-relative form of a resolved path, for messages and diffs. */
export const relativeToWorkspace = (workspace: string, absolute: string): string => {
  const root = realpathSync(workspace);
  return path.relative(root, absolute) || '.';
};
