import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseDiff } from '../../../checks/diff.ts';
import { describeError } from '../../errors.ts';
import { noFollowProbe } from '../../workspace/repo/git.ts';
import { diffsOfStaged, stageChange, type StagedChange } from '../../workspace/repo/staged.ts';
import { wrapRun, type Sandbox } from '../../workspace/sandbox/sandbox.ts';
import type { JobContext } from '../context.ts';
import { applyPatch } from './apply-patch.ts';
import { runInTree, startFreshTree, type FreshRun, type FreshTree } from './fresh-tree.ts';
import type { Reproduced } from './reproduce.ts';

type Failed = Extract<Reproduced, { failed: true }>;

/** The fresh check begun on the change a passing run saw, and a spare tree made beside it. */
interface Begun {
  readonly text: string;
  readonly stop: AbortController;
  readonly run: Promise<FreshRun>;
  readonly startedAt: number;
  readonly spare: Spare;
}

interface Spare {
  readonly tree: Promise<FreshTree | undefined>;
  readonly stop: AbortController;
}

/**
 * What the checks get: the begun run for their very diff, or the spare tree
 * (made from the base while the begun run went on) for any other diff.
 */
export type Taken =
  | { readonly run: FreshRun; readonly startedAt: number }
  | { readonly spare: Promise<FreshTree | undefined> }
  | undefined;

export interface FreshAhead {
  /** The job's sandbox, with its passing runs of the checked commands heard. */
  watch(sandbox: Sandbox): Sandbox;
  /** What was begun, for the judged part of the final diff (see `Taken`); undefined when nothing was begun. */
  take(judgedText: string): Promise<Taken>;
}

/**
 * Begins the fresh check while the agent is still at work: the first time the
 * failing command (or the test command) passes in the job's sandbox, the
 * change as it stands is applied to the early tree and the fresh check's runs
 * start there (its product source, as the judging run has it), beside the agent's next turns — an agent's last test run is
 * mostly its last act. The checks take that run only for the very same diff
 * text: the same change, in the same fresh clone and fresh sandbox, is the
 * run they would make after the agent. For any other diff the begun run is
 * stopped and the check goes on in a spare tree, made from the base while the
 * begun run went on (and stopped as soon as it is not needed). The change is read through an
 * index of regreen's own (the agent's index is not touched), and only under a
 * real sandbox (two suites at once share nothing but the machine).
 */
export const freshAhead = (
  job: JobContext,
  failed: Failed,
  early: Promise<FreshTree | undefined>,
  /** The part of a change the judging run applies (its product source). */
  judged: (text: string, tree: string | undefined) => string,
): FreshAhead => {
  const { prepared } = failed;
  const checked = new Set([prepared.failingCommand, prepared.testCommand]);
  let begun: Promise<Begun | undefined> | undefined;

  /**
   * The change as it stands, staged into an index of regreen's (the workspace's
   * is not touched): once this returns, it is a tree of git's, whatever the
   * agent does next. The index's folder stays until its diffs are read (`read`).
   */
  const snapshot = async (): Promise<{ staged: StagedChange; folder: string }> => {
    // The agent's kernels and servers may be changing the tree as it is read: only a git that
    // follows no link there reads it now (after the agent, nothing of the sandbox runs).
    const unsafe = await noFollowProbe();
    if (unsafe)
      throw new Error(`the host cannot read the workspace without following links (${unsafe})`);
    // A folder of its own: git's view of the workspace shows it, and nothing else beside.
    const folder = mkdtempSync(path.join(job.scratch, 'ahead-index-'));
    try {
      const index = path.join(folder, 'index');
      return { staged: await stageChange(prepared.workspace, prepared.baseSha, index), folder };
    } catch (error) {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
  };

  /** The staged change's diffs (both: the checks read the same change again, and find them). */
  const read = async ({
    staged,
    folder,
  }: {
    staged: StagedChange;
    folder: string;
  }): Promise<{ whole: string; staged: StagedChange }> => {
    try {
      return { whole: (await diffsOfStaged(staged, true)).applied, staged };
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };

  const begin = async ({
    whole,
    staged,
  }: {
    whole: string;
    staged: StagedChange;
  }): Promise<Begun | undefined> => {
    const text = judged(whole, staged.tree);
    const files = [
      ...new Set(
        parseDiff(text).files.flatMap((file) => [
          file.path,
          ...(file.oldPath ? [file.oldPath] : []),
        ]),
      ),
    ];
    const tree = await early;
    if (!tree || files.length === 0 || !tree.holds(files) || job.signal.aborted) return undefined;
    const startedAt = job.deps.clock.now();
    // The early tree goes to this change: a spare takes its place for a change that moves on.
    const spareStop = new AbortController();
    const spare = { tree: startFreshTree(job, failed, 'fresh-spare', spareStop), stop: spareStop };
    const stop = new AbortController();
    const run = (async () => {
      await applyPatch(job, tree.dest, text);
      return runInTree(failed, tree, files, stop.signal);
    })();
    // Read by `take`, or by the disposer when the job ends before its checks.
    run.catch(() => undefined);
    job.trace.emit({
      type: 'note',
      message: `fresh check: begun on the change of the agent's passing run (${files.length} file(s))`,
    });
    return { text, stop, run, startedAt, spare };
  };

  // Registered after the early tree: released first, so no run is left in a tree being removed.
  job.disposables.add(async () => {
    const ahead = await begun;
    if (!ahead) return;
    ahead.stop.abort();
    await ahead.run.catch(() => undefined);
  });

  const notBegun = (error: unknown): undefined => {
    job.trace.emit({
      type: 'note',
      message: `fresh check: not begun ahead (${describeError(error)}); it runs after the agent`,
    });
    return undefined;
  };

  return {
    watch: (sandbox) =>
      wrapRun(sandbox, async (request) => {
        const result = await sandbox.run(request);
        const passed = result.exitCode === 0 && !result.timedOut;
        const checkedRun = request.cwd === prepared.workspace && checked.has(request.command);
        if (begun || !passed || !checkedRun || sandbox.kind !== 'bubblewrap') return result;
        // The change is staged before the run's result goes back: it is the change that passed.
        // Its diffs are read after, beside the agent's next turn.
        const staging = snapshot();
        begun = staging.then(read).then(begin).catch(notBegun);
        await staging.catch(() => undefined);
        return result;
      }),
    take: async (judgedText) => {
      const ahead = await begun;
      if (!ahead) return undefined;
      if (ahead.text === judgedText) {
        ahead.spare.stop.abort();
        return { run: await ahead.run, startedAt: ahead.startedAt };
      }
      ahead.stop.abort();
      await ahead.run.catch(() => undefined);
      job.trace.emit({
        type: 'note',
        message:
          'fresh check: the change moved on after the passing run it was begun on; it runs on the spare tree',
      });
      return { spare: ahead.spare.tree };
    },
  };
};
