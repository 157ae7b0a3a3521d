import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync } from 'node:fs';

/**
 * Removes a folder a sandbox wrote (or may still be writing: a kernel or a
 * language server outlives a command) without ever following a link out of
 * it: GNU rm walks the tree through descriptors, never by re-resolving
 * paths, so a folder swapped for a link mid-walk is removed as a link. Node's
 * recursive `rmSync` re-resolves each path and would follow it (a helper's
 * attack had host root delete a file outside the sandbox that way).
 */
export const removeTree = (...dirs: readonly string[]): void => {
  // In batches: one rm for many paths, within any argument-list limit.
  for (let at = 0; at < dirs.length; at += 256)
    execFileSync('rm', ['-rf', '--one-file-system', '--', ...dirs.slice(at, at + 256)], {
      stdio: 'ignore',
    });
};

/**
 * Removes a folder without making anyone wait for it: renamed aside at once
 * (nothing reaches it by its name any more), then deleted by a detached
 * `rm -rf` that may outlive this process. A fresh clone with its installed
 * dependencies takes seconds to delete; the job's answer should not.
 */
export const discardDir = (dir: string): void => {
  if (!existsSync(dir)) return;
  const aside = `${dir}.discarded-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(dir, aside);
  } catch {
    removeTree(dir);
    return;
  }
  const child = spawn('rm', ['-rf', '--one-file-system', '--', aside], {
    detached: true,
    stdio: 'ignore',
  });
  child.on('error', () => removeTree(aside));
  child.unref();
};
