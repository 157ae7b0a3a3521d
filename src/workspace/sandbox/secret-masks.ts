import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { settingsOf, type Env } from '../../config/env.ts';
import { isAncestorOrSame, SYSTEM_DIRS, type Mount } from './mounts.ts';

/**
 * The host's folders that hold what a job must never show its commands, by
 * what they are rather than where they usually are: regreen's data dir (the
 * job store, every other job), and the Actions runner's own (its temp, with
 * the step scripts and the env and output files; its workspace, with the
 * checkout and the token `actions/checkout` persists). They stay out of the
 * sandbox because nothing mounts them, until a mounted folder holds them: a
 * self-hosted runner installed under `/opt` (a system folder, mounted whole),
 * or a toolchain root above them.
 */
export const secretRoots = (env: Env, dataDir: string): string[] => {
  const settings = settingsOf(env);
  return [dataDir, settings.runnerTemp, settings.runnerWorkspace, settings.githubWorkspace].filter(
    (dir): dir is string => typeof dir === 'string' && path.isAbsolute(dir),
  );
};

/**
 * An empty folder over each secret root that a system or readable folder
 * would show. It is a small tmpfs, not a read-only one: the job's own folders
 * inside it (the data dir holds the workspace) are bound back after it.
 */
export const secretMasks = (hidden: readonly string[], readable: readonly string[]): Mount[] => {
  const shown = [...SYSTEM_DIRS, ...readable];
  const masks: Mount[] = [];
  for (const dir of hidden) {
    let real: string;
    try {
      real = realpathSync(dir);
      if (!statSync(real).isDirectory()) continue;
    } catch {
      continue;
    }
    if (!shown.some((root) => isAncestorOrSame(root, real))) continue;
    if (masks.some((mask) => isAncestorOrSame(mask.target, real))) continue;
    masks.push({ kind: 'tmpfs', source: real, target: real, sizeBytes: 64 * 1024 });
  }
  return masks;
};
