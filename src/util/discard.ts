import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';

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
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  const child = spawn('rm', ['-rf', '--', aside], { detached: true, stdio: 'ignore' });
  child.on('error', () => rmSync(aside, { recursive: true, force: true }));
  child.unref();
};
