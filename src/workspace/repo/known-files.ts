import path from 'node:path';
import { listInside } from './confined-fs.ts';
import { hostGit, noFollowUnavailable } from './git.ts';

const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.venv', 'venv', 'target', 'vendor', 'dist']);

/** Every file below the workspace (not into dependency or build folders, nor through symlinks), by the confined reader. */
const walkInside = (workspace: string, prefix = '', depth = 0): string[] => {
  if (depth > 8) return [];
  let entries;
  try {
    entries = listInside(workspace, path.join(workspace, prefix));
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory())
      return SKIPPED_DIRS.has(entry.name) ? [] : walkInside(workspace, relative, depth + 1);
    return entry.isFile() ? [relative] : [];
  });
};

/**
 * The files git knows in the workspace, relative to it (tracked, or new and
 * not ignored); every file (not into dependency or build folders) when it is
 * no repository of its own. Asked of git with the host's safe configuration,
 * in one process (a job's agent lists them on every folder-wide search), and
 * never synchronously: a FIFO left where git opens a `.gitignore` holds only
 * this call, not the process.
 */
export const knownFiles = async (workspace: string): Promise<string[]> => {
  try {
    // Its own repository has `.git` at its top (a folder, or a file naming one), never a link.
    const own = listInside(workspace, workspace).some(
      (entry) => entry.name === '.git' && (entry.isDirectory() || entry.isFile()),
    );
    if (!own) return walkInside(workspace);
    // The walk for new files lists folders the sandbox's processes may swap for links meanwhile.
    return (
      await hostGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
        cwd: workspace,
        noFollow: noFollowUnavailable() === undefined,
      })
    )
      .split('\0')
      .filter(Boolean);
  } catch {
    return walkInside(workspace);
  }
};
