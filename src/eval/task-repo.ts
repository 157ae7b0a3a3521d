import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { describeError } from '../errors.ts';
import { commitStaged } from '../workspace/repo/staged.ts';
import { gitRemote } from '../workspace/repo/git-remote.ts';
import { createSetupCache, type SetupCache } from '../workspace/setup/cache.ts';
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
          // `--no-local`: packed, even from a folder, so each task's fetch of its base
          // reuses the pack's compressed objects instead of deflating loose ones again.
          await gitRemote(['clone', '--quiet', '--mirror', '--no-local', '--', repo, staging], {
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
  mkdirSync(dir, { recursive: true });
  if (!(await fetchOnlyTheBase(dir, from, task.base_commit))) await viaWholeClone(task, dir, from);
  if (task.kind === 'ci' && task.test_patch) {
    await applyPatch(dir, task.test_patch, 'test patch');
    await commitStaged(dir, "eval: the person's tests");
  }
};

/**
 * The task repository holds the base commit's history and nothing else: no
 * branch, tag or remote ref that leads to the person's fix (the answer would
 * be one `git log` away), and no object of it left to find. Fetching the base
 * into an empty repository transfers exactly what the base reaches, whatever
 * the source's packs hold (a partial clone's promisor pack would survive a
 * clone's gc). False when the source does not serve the base by that name
 * (an abbreviated id; a server that refuses unadvertised objects).
 */
const fetchOnlyTheBase = async (dir: string, from: string, base: string): Promise<boolean> => {
  rmSync(path.join(dir, '.git'), { recursive: true, force: true });
  await gitRemote(['init', '--quiet', '--', dir], { cwd: path.dirname(dir) });
  try {
    await gitRemote(['fetch', '--quiet', '--no-tags', '--', from, base], { cwd: dir });
  } catch {
    return false;
  }
  await gitRemote(['checkout', '--quiet', '-B', 'regreen-eval', 'FETCH_HEAD'], { cwd: dir });
  rmSync(path.join(dir, '.git', 'FETCH_HEAD'), { force: true });
  return true;
};

/** A base the source will not serve by name: named in a whole clone, then fetched from it by its id. */
const viaWholeClone = async (task: EvalTask, dir: string, from: string): Promise<void> => {
  const whole = `${dir}.whole`;
  rmSync(whole, { recursive: true, force: true });
  try {
    // From regreen's own mirror, objects may be hard-linked; from the user's repository, never.
    await gitRemote(
      [
        'clone',
        '--quiet',
        '--bare',
        ...(from === task.repo ? ['--no-hardlinks'] : []),
        from,
        whole,
      ],
      { cwd: path.dirname(dir) },
    );
    const id = (
      await gitRemote(
        ['rev-parse', '--verify', '--end-of-options', `${task.base_commit}^{commit}`],
        {
          cwd: whole,
        },
      ).catch((error: unknown) => {
        throw new Error(`the base ${task.base_commit} is not a commit of ${from}`, {
          cause: error,
        });
      })
    ).trim();
    if (!(await fetchOnlyTheBase(dir, whole, id)))
      throw new Error(`the base ${task.base_commit} cannot be fetched from ${from}`);
  } finally {
    rmSync(whole, { recursive: true, force: true });
  }
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
