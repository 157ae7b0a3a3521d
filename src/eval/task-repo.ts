import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { describeError } from '../errors.ts';
import { IDENTITY } from '../workspace/git.ts';
import { gitRemote } from '../workspace/git-remote.ts';
import { createSetupCache, type SetupCache } from '../workspace/setup-cache.ts';
import type { EvalTask } from './tasks.ts';

import type { EvalRunOptions } from './types.ts';

/** What tasks of one run share: the setup cache and the mirrors. */
export interface Shared {
  readonly setupCache?: SetupCache;
  mirror(repo: string): Promise<string>;
}

export const sharedFor = (options: Pick<EvalRunOptions, 'reuse' | 'outDir'>): Shared => {
  if (options.reuse === false) return { mirror: (repo) => Promise.resolve(repo) };
  const mirrors = new Map<string, Promise<string>>();
  return {
    setupCache: createSetupCache(path.join(options.outDir, 'cache', 'setup')),
    mirror: (repo) => {
      const known = mirrors.get(repo);
      if (known) return known;
      const dest = path.join(
        options.outDir,
        'cache',
        'mirrors',
        `${createHash('sha1').update(repo).digest('hex').slice(0, 16)}.git`,
      );
      // Workers of one run may share the out dir: a mirror appears whole (clone, then
      // rename) and a fetch that races another process's is retried once.
      const made = (async () => {
        if (!existsSync(dest)) {
          mkdirSync(path.dirname(dest), { recursive: true });
          const staging = `${dest}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
          await gitRemote(['clone', '--quiet', '--mirror', '--', repo, staging], {
            cwd: path.dirname(dest),
          });
          try {
            renameSync(staging, dest);
            return dest;
          } catch {
            rmSync(staging, { recursive: true, force: true });
          }
        }
        const fetch = () => gitRemote(['fetch', '--quiet', '--prune', 'origin'], { cwd: dest });
        await fetch().catch(async () => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          await fetch();
        });
        return dest;
      })();
      mirrors.set(repo, made);
      return made;
    },
  };
};

/** The task's repository at its base, with the person's tests committed for a `ci` task. */
export const prepareTaskRepo = async (
  task: EvalTask,
  dir: string,
  from = task.repo,
): Promise<void> => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  // From regreen's own mirror, objects may be hard-linked; from the user's repository, never.
  await gitRemote(
    ['clone', '--quiet', ...(from === task.repo ? ['--no-hardlinks'] : []), from, dir],
    {
      cwd: path.dirname(dir),
    },
  );
  await gitRemote(['checkout', '--quiet', '-B', 'regreen-eval', task.base_commit], { cwd: dir });
  await keepOnlyTheBase(dir);
  if (task.kind === 'ci' && task.test_patch) {
    await applyPatch(dir, task.test_patch, 'test patch');
    await gitRemote(
      [...IDENTITY, 'commit', '--quiet', '--no-verify', '-m', "eval: the person's tests"],
      {
        cwd: dir,
      },
    );
  }
};

/**
 * The task repository holds the base commit's history and nothing else: no
 * branch, tag or remote ref that leads to the person's fix (the answer would
 * be one `git log` away), and no object of it left to find.
 */
const keepOnlyTheBase = async (dir: string): Promise<void> => {
  await gitRemote(['remote', 'remove', 'origin'], { cwd: dir }).catch(() => undefined);
  const refs = (await gitRemote(['for-each-ref', '--format=%(refname)'], { cwd: dir }))
    .split('\n')
    .filter((ref) => ref && ref !== 'refs/heads/regreen-eval');
  for (const ref of refs) await gitRemote(['update-ref', '-d', ref], { cwd: dir });
  await gitRemote(['reflog', 'expire', '--expire=now', '--all'], { cwd: dir });
  await gitRemote(['gc', '--quiet', '--prune=now'], { cwd: dir });
};

export const applyPatch = async (dir: string, patch: string, what: string): Promise<void> => {
  const file = path.join(dir, '.git', `regreen-${what.replace(/\W+/g, '-')}.patch`);
  writeFileSync(file, patch.endsWith('\n') ? patch : `${patch}\n`);
  try {
    await gitRemote(['apply', '--index', '--binary', '--whitespace=nowarn', file], { cwd: dir });
  } catch (error) {
    throw new Error(`the ${what} does not apply: ${describeError(error)}`, { cause: error });
  }
};
