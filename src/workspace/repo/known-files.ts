import path from 'node:path';
import { listInside } from './confined-fs.ts';
import { hostGit, noFollowProbe } from './git.ts';

const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.venv', 'venv', 'target', 'vendor', 'dist']);

/**
 * The most entries a walk lists: it reads synchronously (the confined
 * reader), and a tree of a hundred thousand folders would hold the process
 * for seconds.
 */
const MAX_WALKED = 20_000;

/** Every file below the workspace (not into dependency or build folders, nor through symlinks), by the confined reader. */
const walkInside = (workspace: string): string[] => {
  const files: string[] = [];
  let walked = 0;
  const walk = (prefix: string, depth: number): void => {
    if (depth > 8) return;
    let entries;
    try {
      entries = listInside(workspace, path.join(workspace, prefix));
    } catch {
      return;
    }
    for (const entry of entries) {
      walked += 1;
      if (walked > MAX_WALKED) return;
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(relative, depth + 1);
      } else if (entry.isFile()) files.push(relative);
    }
  };
  walk('', 0);
  return files;
};

/** How long the listing may take: a FIFO where git opens a `.gitignore` holds it this long. */
const LISTING_TIMEOUT_MS = 60_000;

/**
 * The files git knows in the workspace, relative to it (tracked, or new and
 * not ignored); every file (not into dependency or build folders, at most
 * `MAX_WALKED` entries) when it is no repository of its own, or when this
 * host cannot make git's view of it. Asked of git with the host's safe
 * configuration, on the workspace's view, in one process (a job's agent lists
 * them on every folder-wide search), and never synchronously: a FIFO left
 * where git opens a `.gitignore` holds only this call, not the process. A
 * git that fails is an error, not a walk: what made it fail (a planted
 * `commondir` naming nothing) is the workspace's code's doing.
 */
export const knownFiles = async (workspace: string): Promise<string[]> => {
  let own: boolean;
  try {
    // Its own repository has `.git` at its top (a folder, or a file naming one), never a link.
    own = listInside(workspace, workspace).some(
      (entry) => entry.name === '.git' && (entry.isDirectory() || entry.isFile()),
    );
  } catch {
    return [];
  }
  if (!own || (process.platform === 'linux' && (await noFollowProbe()) !== undefined))
    return walkInside(workspace);
  // The walk for new files lists folders the sandbox's processes may swap for links meanwhile.
  return (
    await hostGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: workspace,
      noFollow: true,
      timeoutMs: LISTING_TIMEOUT_MS,
    })
  )
    .split('\0')
    .filter(Boolean);
};
