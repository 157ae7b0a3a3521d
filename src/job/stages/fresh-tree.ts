import path from 'node:path';
import { describeError } from '../../errors.ts';
import { Disposables } from '../../util/disposables.ts';
import type { CommandResult } from '../../workspace/run-process.ts';
import { CHECKED_OUTPUT_BYTES, type Sandbox } from '../../workspace/sandbox/sandbox.ts';
import { privateFolders } from '../../workspace/sandbox/shared.ts';
import { leftTrackedAlone } from '../../workspace/setup/cache.ts';
import { touchesReads } from '../../workspace/setup/reads.ts';
import type { JobContext } from '../context.ts';
import type { CheckedRun } from '../../../checks/types.ts';
import { countedRun } from './counted-run.ts';
import { takeRunStart } from './between-runs.ts';
import { buildFirst } from './build-first.ts';
import { type HeldBuild, holdBuild } from './hold-build.ts';
import { holdHomeFiles, holdInstalled, release } from './hold-installed.ts';
import { guardTree } from './guard-tree.ts';
import { applyPatch } from './apply-patch.ts';
import { cloneForJob, openSandbox, runSetup } from './prepare.ts';
import { excludeSetupArtifacts } from './setup-exclusions.ts';
import type { Reproduced } from './reproduce.ts';
import { handOnSetupCaches, keepSetupCaches } from './setup-caches.ts';
import { discardAtEnd } from './scratch.ts';

type Failed = Extract<Reproduced, { failed: true }>;

/** A clean clone of the base in a sandbox of its own, its setup run: where the fresh check runs the fix. */
export interface FreshTree {
  readonly dest: string;
  readonly sandbox: Sandbox;
  /** The setup's result in this tree (undefined: the job has no setup). */
  readonly setup: CommandResult | undefined;
  /** Runs a command in the tree, with the whole output kept for the checks; `signal` stops it too. */
  readonly run: (
    command: string,
    network: 'off' | 'setup',
    timeoutMs: number,
    signal?: AbortSignal,
  ) => Promise<CommandResult>;
  /** Runs a command the checks count (see `countedRun`), network off; `hold` as the sandbox's. */
  readonly counted: (
    command: string,
    timeoutMs: number,
    signal?: AbortSignal,
    hold?: readonly string[],
  ) => Promise<CheckedRun>;
  /** Whether a diff touching these files may run here, on what the setup made before it. */
  readonly holds: (files: readonly string[]) => boolean;
}

/** What a tree is made with: where its resources are released, and what stops its commands. */
interface Making {
  readonly disposables: Disposables;
  readonly signal: AbortSignal;
}

/**
 * A fresh clone of the base (with the diff applied first when it is given),
 * its own sandbox, the job's download caches handed on, and the setup run.
 */
const makeTree = async (
  job: JobContext,
  failed: Failed,
  name: string,
  diffText: string | undefined,
  making: Making = { disposables: job.disposables, signal: job.signal },
): Promise<FreshTree> => {
  const { prepared } = failed;
  const dest = path.join(job.scratch, name);
  // The fresh clone is only evidence: it goes with the job (the workspace and the trace stay).
  making.disposables.add(discardAtEnd(job, dest));
  // The base under the branch name CI had, as in the workspace.
  await cloneForJob(job, prepared.intake.source, prepared.baseSha, dest, prepared.branch ?? '');
  if (diffText !== undefined) await applyPatch(job, dest, diffText);
  making.signal.throwIfAborted();
  const sandbox = await openSandbox(job, dest, name, making.disposables, true);
  handOnSetupCaches(job, sandbox);
  const run: FreshTree['run'] = (command, network, timeoutMs, signal) =>
    sandbox.run({
      command,
      cwd: dest,
      network,
      timeoutMs,
      signal: signal ? AbortSignal.any([making.signal, signal]) : making.signal,
      maxOutputBytes: CHECKED_OUTPUT_BYTES,
    });
  const counted: FreshTree['counted'] = (command, timeoutMs, signal, hold) =>
    countedRun(sandbox, {
      command,
      cwd: dest,
      network: 'off',
      timeoutMs,
      signal: signal ? AbortSignal.any([making.signal, signal]) : making.signal,
      maxOutputBytes: CHECKED_OUTPUT_BYTES,
      judged: true,
      ...(hold && hold.length > 0 ? { hold } : {}),
    });
  const command = prepared.setupCommand;
  if (!command) return { dest, sandbox, setup: undefined, run, counted, holds: () => true };
  const setup = await runSetup(job, dest, command, () =>
    run(command, 'setup', prepared.config.timeouts.setup_seconds * 1000),
  );
  making.signal.throwIfAborted();
  // A setup that rewrote a tracked file is made again; what else it made stays its own (a venv, an
  // editable install), and its traced reads say which changes it survives.
  const reusable = setup.exitCode === 0 && (await leftTrackedAlone(dest));
  await excludeSetupArtifacts(dest);
  // What the setup was seen to read decides which changes it survives; unrecorded, none.
  const reads = reusable ? setup.reads : undefined;
  const isInput = reads ? (file: string) => touchesReads(reads, file) : () => true;
  return { dest, sandbox, setup, run, counted, holds: (files) => !files.some(isInput) };
};

/**
 * Starts the fresh check's tree while the agent works: the clone of the base
 * and its setup do not depend on the fix. Its setup is the base's, so the tree
 * serves only a fix that leaves everything the setup read as it was (`touchesReads`) —
 * anything else gets a tree made after the fix, as before. Never throws: a
 * tree that cannot be made early is made later. A job that ends before its
 * checks stops the setup, and waits for it, before the tree is removed.
 */
export const startFreshTree = (
  job: JobContext,
  failed: Failed,
  name = 'fresh',
  /** Stops the making before the job ends (a spare tree no longer needed). */
  stop = new AbortController(),
): Promise<FreshTree | undefined> => {
  if (failed.setupFailed) return Promise.resolve(undefined);
  const making: Making = {
    disposables: new Disposables(),
    signal: AbortSignal.any([job.signal, stop.signal]),
  };
  const tree = makeTree(job, failed, name, undefined, making).catch((error: unknown) => {
    if (!making.signal.aborted)
      job.trace.emit({
        type: 'note',
        message: `fresh check: the early clone failed (${describeError(error)}); it is made after the fix`,
      });
    return undefined;
  });
  job.disposables.add(async () => {
    stop.abort();
    await tree;
    await making.disposables.disposeAll((error) =>
      job.logger.warn({ err: error }, 'dispose failed'),
    );
  });
  return tree;
};

/**
 * The tree the fresh check runs the fix in: the early one with the diff
 * applied when the fix leaves its setup's inputs alone, else a new clone with
 * the diff applied before its setup.
 */
export const freshTreeFor = async (
  job: JobContext,
  failed: Failed,
  diff: { text: string; files: readonly string[] },
  early: Promise<FreshTree | undefined> | undefined,
  /** The folder of a tree made after the fix (`-again` beside an early tree that cannot serve). */
  name = 'fresh',
): Promise<{ tree: FreshTree; early: boolean }> => {
  const started = await early;
  if (started?.holds(diff.files)) {
    await applyPatch(job, started.dest, diff.text);
    return { tree: started, early: true };
  }
  if (started) {
    job.trace.emit({
      type: 'note',
      message: 'fresh check: the fix changes what the setup reads; the setup runs again after it',
    });
    // The download caches go back from the early tree's home to the new tree's.
    keepSetupCaches(job, started.sandbox);
  }
  return {
    tree: await makeTree(job, failed, early ? `${name}-again` : name, diff.text),
    early: false,
  };
};

/** The fresh check's runs: what the checks compare with the runs on the base. */
export interface FreshRun {
  readonly failing: CheckedRun;
  readonly tests: CheckedRun;
  /** The tree they ran in (the change's own tests run there after the verdict). */
  readonly tree: FreshTree;
  /** Tracked files of the base's tests and harness the runs changed (they must change none). */
  readonly tampered: readonly string[];
  /** Those files, and the folders holding them, the runs replaced or altered whatever their content. */
  readonly replaced: readonly string[];
  /** Whether those files were unwritable during the runs (regreen as root), or only compared after. */
  readonly guarded: boolean;
  /** What the runs held still beyond the tracked files: the installs, the build made first. */
  readonly held?: string;
}

/** The failing command in the tree, and the test command after it when it is another. */
export const runInTree = async (
  failed: Failed,
  tree: FreshTree,
  /** The files of the judged change: everything else tracked is the base's, held still. */
  judged: readonly string[],
  signal?: AbortSignal,
): Promise<FreshRun> => {
  const { prepared } = failed;
  const { setup } = tree;
  const timeoutMs = prepared.config.timeouts.command_seconds * 1000;
  if (setup && setup.exitCode !== 0)
    return { failing: setup, tests: setup, tree, tampered: [], replaced: [], guarded: false };
  const guard = await guardTree(tree.dest, new Set(judged));
  const installed = holdInstalled(tree.dest);
  const ownFiles = holdHomeFiles(
    privateFolders(tree.sandbox.policy).home,
    Object.keys(tree.sandbox.policy.homeFiles ?? {}),
    guard.enforced,
  );
  const built = guard.enforced ? await buildBeforeRuns(failed, tree, timeoutMs, signal) : undefined;
  try {
    const runs =
      built && 'failed' in built
        ? { failing: built.failed, tests: built.failed }
        : await judgedRuns(
            failed,
            tree,
            timeoutMs,
            signal,
            [...guard.held, ...(built?.held.mounts ?? [])],
            built?.judged,
          );
    return {
      ...runs,
      tree,
      tampered: await guard.changed(),
      replaced: guard.replaced(),
      guarded: guard.enforced,
      held: heldSummary(tree.dest, installed, built && 'held' in built ? built.summary : undefined),
    };
  } finally {
    if (built && 'held' in built) built.held.release();
    release(ownFiles);
    guard.release();
  }
};

/** What the runs held beyond the tracked files, in a line of the trace; undefined when nothing. */
const heldSummary = (
  dest: string,
  installed: { trees: readonly string[]; entries: number },
  built: string | undefined,
): string | undefined => {
  const parts = [
    ...(installed.trees.length > 0
      ? [
          `${installed.entries} entries of ${installed.trees.map((tree) => path.relative(dest, tree)).join(', ')} held`,
        ]
      : []),
    ...(built ? [built] : []),
  ];
  return parts.length > 0 ? parts.join('; ') : undefined;
};

/**
 * The build the judged commands make, run first and held still through them
 * (`build-first.ts`, `hold-build.ts`). A build that fails is the runs'
 * failure: never a reason to run the commands unheld.
 */
const buildBeforeRuns = async (
  failed: Failed,
  tree: FreshTree,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<
  | { failed: CheckedRun }
  | { held: HeldBuild; summary: string; judged: (command: string) => string }
  | undefined
> => {
  const { prepared } = failed;
  const build = buildFirst([prepared.failingCommand, prepared.testCommand]);
  if (build === undefined) return undefined;
  const result = await tree.run(build.command, 'off', timeoutMs, signal);
  if (result.exitCode !== 0)
    return {
      failed: {
        ...result,
        output: `regreen built first what the judged commands run (${build.command}); the build failed:\n${result.output}`,
      },
    };
  const held = holdBuild(tree.dest, build.kinds);
  return {
    held,
    judged: build.judged,
    summary: `built first (${build.command}), ${held.entries} entries of ${held.folders.join(', ') || 'no output folder'} held`,
  };
};

const judgedRuns = async (
  failed: Failed,
  tree: FreshTree,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  /** The top folder's entries of the base's tests, held still by the runs' mounts. */
  hold: readonly string[],
  /** A command as it runs after the build first (`build-first.ts`: without its cleans). */
  judged: (command: string) => string = (command) => command,
): Promise<{ failing: CheckedRun; tests: CheckedRun }> => {
  const { prepared } = failed;
  const { setup } = tree;
  const second = prepared.testCommand !== prepared.failingCommand || failed.setupFailed;
  // The test command starts from what the failing command started from (`between-runs.ts`).
  const { home, tmp } = privateFolders(tree.sandbox.policy);
  const start = second ? takeRunStart([tree.dest, home, tmp]) : undefined;
  const failing =
    failed.setupFailed && setup
      ? setup
      : await tree.counted(judged(prepared.failingCommand), timeoutMs, signal, hold);
  start?.restore();
  const tests = second
    ? await tree.counted(judged(prepared.testCommand), timeoutMs, signal, hold)
    : failing;
  return { failing, tests };
};
