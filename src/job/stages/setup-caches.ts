import { lstatSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { discardDir } from '../../util/discard.ts';
import type { Sandbox } from '../../workspace/sandbox.ts';
import { privateFolders } from '../../workspace/sandbox-shared.ts';
import type { JobContext } from '../context.ts';

/**
 * Download caches a setup fills and its result never reads again: npm's
 * (`node_modules` holds what it installed). Not `~/.cache` (Playwright's
 * browsers, Yarn's global cache for Plug'n'Play), not Cargo's or Go's (the
 * tests build from them).
 */
const HANDED_ON = ['.npm'];

const keptDir = (job: JobContext): string => path.join(job.dir, 'setup-download-caches');

const isRealDir = (file: string): boolean => {
  try {
    return lstatSync(file).isDirectory();
  } catch {
    return false;
  }
};

const exists = (file: string): boolean => {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
};

/**
 * Right after the job's setup, while no command of its sandbox runs: the
 * download caches the setup filled move out of the sandbox's home (a rename,
 * not a copy), where nothing the agent runs can write to them.
 */
export const keepSetupCaches = (job: JobContext, sandbox: Sandbox): void => {
  const { home } = privateFolders(sandbox.policy);
  const kept = keptDir(job);
  mkdirSync(kept, { recursive: true });
  job.disposables.add(() => discardDir(kept));
  for (const name of HANDED_ON) {
    // A link planted in the home stays where it is: only a real folder moves.
    if (isRealDir(path.join(home, name)) && !exists(path.join(kept, name)))
      renameSync(path.join(home, name), path.join(kept, name));
  }
};

/**
 * Before the fresh check's first command, into the home just made for it:
 * the kept caches become its own, so its setup installs from what the job's
 * setup downloaded instead of downloading it all again.
 */
export const handOnSetupCaches = (job: JobContext, sandbox: Sandbox): void => {
  const { home } = privateFolders(sandbox.policy);
  const kept = keptDir(job);
  for (const name of HANDED_ON)
    if (isRealDir(path.join(kept, name)) && !exists(path.join(home, name)))
      renameSync(path.join(kept, name), path.join(home, name));
};
