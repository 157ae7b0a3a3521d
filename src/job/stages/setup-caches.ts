import { lstatSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { homeOf, settingsOf } from '../../config/env.ts';
import {
  importTarballs,
  lockedTarballs,
  pruneTarballs,
  seedTarballs,
} from '../../workspace/setup/npm-tarballs.ts';
import type { Sandbox } from '../../workspace/sandbox/sandbox.ts';
import { privateFolders } from '../../workspace/sandbox/shared.ts';
import { discardAtEnd } from './scratch.ts';
import type { JobContext } from '../context.ts';

/**
 * Download caches a setup fills and its result never reads again: npm's
 * (`node_modules` holds what it installed). Not `~/.cache` (Playwright's
 * browsers, Yarn's global cache for Plug'n'Play), not Cargo's or Go's (the
 * tests build from them).
 */
const HANDED_ON = ['.npm'];

const keptDir = (job: JobContext): string => path.join(job.scratch, 'setup-download-caches');

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

/** regreen's own store of npm tarballs, shared by the jobs of this data dir; 2 GiB unless set. */
const npmStore = (job: JobContext): { dir: string; maxBytes: number } => ({
  dir: path.join(job.deps.dataDir, 'caches', 'npm'),
  maxBytes: (settingsOf(job.deps.env).npmStoreMb ?? 2048) * 1024 * 1024,
});

/**
 * Before the job's setup, into the sandbox's fresh home: the tarballs the
 * lockfile names that regreen's store (filled by earlier jobs) or the
 * operator's own npm cache holds, each checked against its address — a
 * warm cache, as CI's own cache step gives it, without any entry a sandbox
 * wrote reaching another job unchecked. `REGREEN_NPM_STORE_MB=0` turns it
 * off; `REGREEN_HOST_CACHES=off` keeps the operator's cache out.
 */
export const seedSetupCaches = (job: JobContext, sandbox: Sandbox, workspace: string): number => {
  const store = npmStore(job);
  if (store.maxBytes === 0) return 0;
  const { home } = privateFolders(sandbox.policy);
  const npm = path.join(home, '.npm');
  // Only into a home where nothing made ~/.npm yet (and never through a link).
  if (exists(npm)) return 0;
  const settings = settingsOf(job.deps.env);
  const operator = path.join(homeOf(job.deps.env), '.npm', '_cacache');
  const seeded = seedTarballs(
    { store: store.dir, others: settings.hostCaches === 'off' ? [] : [operator] },
    path.join(npm, '_cacache'),
    lockedTarballs(workspace),
  );
  if (seeded > 0)
    job.trace.emit({
      type: 'note',
      message: `npm cache: ${seeded} tarballs from earlier downloads`,
    });
  return seeded;
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
  job.disposables.add(discardAtEnd(job, kept));
  for (const name of HANDED_ON) {
    // A link planted in the home stays where it is: only a real folder moves.
    if (isRealDir(path.join(home, name)) && !exists(path.join(kept, name)))
      renameSync(path.join(home, name), path.join(kept, name));
  }
  // What it downloaded joins the store for later jobs: only tarballs whose bytes match their address.
  const store = npmStore(job);
  const cacache = path.join(kept, '.npm', '_cacache');
  if (store.maxBytes > 0 && isRealDir(cacache) && importTarballs(cacache, store.dir) > 0)
    pruneTarballs(store.dir, store.maxBytes);
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
