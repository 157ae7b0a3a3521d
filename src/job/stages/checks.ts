import { DiffParseError, parseDiff, type ParsedDiff } from '../../../checks/diff.ts';
import { runChecks } from '../../../checks/index.ts';
import type { CheckResult } from '../../../checks/types.ts';
import type { CheckedRun } from '../../../checks/types.ts';
import {
  ChangeTooLargeError,
  workspaceDiffs,
  type StagedDiffs,
} from '../../workspace/repo/staged.ts';
import type { CommandResult } from '../../workspace/run-process.ts';
import type { JobContext } from '../context.ts';
import type { FreshAhead } from './fresh-ahead.ts';
import { applyPatch } from './apply-patch.ts';
import { freshTreeFor, runInTree, type FreshRun, type FreshTree } from './fresh-tree.ts';
import {
  baseContent,
  baseFiles,
  changedTreeLinks,
  judgedChange,
  newContent,
} from './judged-change.ts';
import { newTopLevelModules, shadowedNames, unimportedModules } from './shadowing.ts';
import type { RecipesResult } from './recipes.ts';
import type { Reproduced } from './reproduce.ts';

type Failed = Extract<Reproduced, { failed: true }>;

export interface ChecksResult {
  readonly diff: ParsedDiff;
  readonly results: readonly CheckResult[];
  readonly ok: boolean;
  /** The fresh run of the failing command (its tail goes into the PR text). */
  readonly fresh: CommandResult | undefined;
  /** The test command with the change's own tests applied, after the verdict (reported in the PR). */
  readonly changeTests?: CheckedRun;
  /** The tree of the change the checks read: what a proposal commits. */
  readonly tree?: string;
  /**
   * Not ok, but every failed check is one a person may overrule, and drafts
   * are on: what they must look at. The change may be proposed as a draft.
   */
  readonly needsPerson?: readonly string[];
}

/** The diff applied to a clean clone of the base, in a sandbox of its own. */
const freshRun = async (
  job: JobContext,
  failed: Failed,
  judged: string,
  early: Promise<FreshTree | undefined> | undefined,
  ahead: FreshAhead | undefined,
): Promise<FreshRun> => {
  const started = job.deps.clock.now();
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const diff = parseDiff(judged);
  const taken = await ahead?.take(judged);
  if (taken && 'run' in taken) {
    job.trace.emit({
      type: 'note',
      // Begun when the agent's run passed: before the checks, or while they cut the change.
      message: `fresh check: begun ${started >= taken.startedAt ? `${seconds(started - taken.startedAt)} before the checks` : `${seconds(taken.startedAt - started)} after the checks began`} on this very change, waited ${seconds(job.deps.clock.now() - started)} for it${taken.run.held ? `; ${taken.run.held}` : ''}`,
    });
    return taken.run;
  }
  const files = diff.files.flatMap((file) => [file.path, ...(file.oldPath ? [file.oldPath] : [])]);
  const made = taken
    ? await freshTreeFor(job, failed, { text: diff.text, files }, taken.spare, 'fresh-spare')
    : await freshTreeFor(job, failed, { text: diff.text, files }, early);
  const { tree } = made;
  const ready = job.deps.clock.now();
  const { setup } = tree;
  const run = await runInTree(failed, tree, files);
  const { failing, tests } = run;
  const setupPart = setup ? `, setup ${seconds(setup.durationMs)}` : '';
  job.trace.emit({
    type: 'note',
    message: `fresh check: ${made.early ? `made while the agent worked${setupPart}; the fix applied in ${seconds(ready - started)}` : `clone and setup ${seconds(ready - started)}`}, failing command ${seconds(failing.durationMs)}${tests === failing ? '' : `, tests ${seconds(tests.durationMs)}`}${run.held ? `; ${run.held}` : ''}`,
  });
  return run;
};

/**
 * The change as the checks read it: the text diff (see `workspaceDiffs`), with
 * each file git would call binary marked so. A diff the parser cannot read is
 * a failed check, never an empty pass.
 */
export const readChange = async (
  workspace: string,
  baseSha: string,
): Promise<{ diff: ParsedDiff; unreadable?: string; tree?: string }> => {
  let diffs: StagedDiffs;
  try {
    diffs = await workspaceDiffs(workspace, baseSha);
  } catch (error) {
    if (!(error instanceof ChangeTooLargeError)) throw error;
    return { diff: { text: '', files: [], changedLines: 0 }, unreadable: error.message };
  }
  const { applied } = diffs;
  const empty: ParsedDiff = { text: applied, files: [], changedLines: 0 };
  try {
    const binary = new Set(
      parseDiff(applied)
        .files.filter((file) => file.binary)
        .map((file) => file.path),
    );
    const read = parseDiff(diffs.checks);
    return {
      ...(diffs.tree ? { tree: diffs.tree } : {}),
      diff: {
        ...read,
        text: applied,
        files: read.files.map((file) => ({ ...file, binary: binary.has(file.path) })),
      },
    };
  } catch (error) {
    if (!(error instanceof DiffParseError)) throw error;
    return { diff: empty, unreadable: error.message };
  }
};

/** The most of a change the trace keeps (its checks see all of it). */
const MAX_RECORDED_DIFF = 512 * 1024;
/** Every check, by code, on the proposed diff. */
export const runChecksStage = async (
  job: JobContext,
  failed: Failed,
  recipes: RecipesResult,
  early?: Promise<FreshTree | undefined>,
  ahead?: FreshAhead,
): Promise<ChecksResult> => {
  const { prepared } = failed;
  const { diff, unreadable, tree } = await readChange(prepared.workspace, prepared.baseSha);
  if (unreadable !== undefined)
    return {
      diff,
      results: [
        { name: 'readable-diff', ok: false, detail: `the change cannot be read: ${unreadable}` },
      ],
      ok: false,
      fresh: undefined,
    };
  if (diff.files.length === 0) return { diff, results: [], ok: false, fresh: undefined };
  // The change itself, for the pages: what a person reviews, whoever made it.
  job.trace.emit({
    type: 'change',
    diff: diff.text.slice(0, MAX_RECORDED_DIFF),
    ...(diff.text.length > MAX_RECORDED_DIFF ? { truncated: true } : {}),
  });
  const split = judgedChange(prepared, diff.text, recipes.allowedProtected, tree);
  job.trace.emit({
    type: 'note',
    message: `judging: ${split.paths.source.length} product file(s) applied to the base's tests and harness; ${split.paths.test.length} test and ${split.paths.docs.length} prose file(s) run after the verdict; ${split.paths.harness.length} harness file(s)`,
    data: split.paths,
  });
  const files = baseFiles(prepared.workspace, prepared.baseSha);
  const timeoutMs = prepared.config.timeouts.command_seconds * 1000;
  const judging =
    split.judged === '' ? undefined : await freshRun(job, failed, split.judged, early, ahead);
  const nothing: CheckedRun = {
    exitCode: 1,
    timedOut: false,
    durationMs: 0,
    droppedBytes: 0,
    output: 'the change has no product source: nothing of it was judged (the base is unchanged)',
  };
  const added = diff.files.filter((file) => file.status === 'added').map((file) => file.path);
  const judgedAdded = added.filter((file) => split.paths.source.includes(file));
  const topLevel = newTopLevelModules(judgedAdded, files);
  const productPython = diff.files
    .filter((file) => split.paths.source.includes(file.path) && file.path.endsWith('.py'))
    .flatMap((file) => file.added);
  const installed = judging ? await shadowedNames(judging.tree, topLevel, timeoutMs) : [];
  const shadowing =
    typeof installed === 'string'
      ? installed
      : [...installed, ...unimportedModules(topLevel, productPython)];
  const passed = judging && judging.failing.exitCode === 0 && judging.tests.exitCode === 0;
  let changeTests: CheckedRun | undefined;
  if (judging && split.paths.test.length > 0 && split.paths.harness.length === 0) {
    if (passed) {
      await applyPatch(job, judging.tree.dest, split.unjudged);
      changeTests = await judging.tree.counted(prepared.testCommand, timeoutMs);
    } else
      changeTests = {
        ...nothing,
        output: "not run: the verdict on the base's tests failed first",
      };
  }
  // Nothing judged, or harness touched: the change's tests did not run (the check says why).
  const results = runChecks({
    diff,
    baseFiles: files,
    baseContent: baseContent(prepared.workspace, prepared.baseSha),
    newContent: newContent(prepared.workspace, tree),
    failingCommand: failed.command,
    testCommand: prepared.testCommand,
    failingBefore: failed.result,
    freshFailing: judging?.failing ?? nothing,
    ...(prepared.sandbox.kind === 'none' ? { unsandboxed: true } : {}),
    testsBefore: failed.testsBefore,
    testsAfter: judging?.tests ?? nothing,
    protectedGlobs: prepared.config.protected,
    allowedProtected: recipes.allowedProtected,
    unprotectedGlobs: prepared.config.unprotected,
    limits: {
      maxFiles: prepared.config.diff_limits.max_files,
      maxLines: prepared.config.diff_limits.max_lines,
      maxBytes: prepared.config.diff_limits.max_kib * 1024,
    },
    linkIn: changedTreeLinks(prepared.workspace),
    split,
    shadowing,
    changeTests,
    heldStill: {
      changed: judging?.tampered ?? [],
      replaced: judging?.replaced ?? [],
      enforced: judging?.guarded ?? false,
    },
  });
  const ok = results.every((result) => result.ok);
  const refused = results.filter((result) => !result.ok);
  const person =
    !ok && refused.every((result) => (result.needsPerson?.length ?? 0) > 0)
      ? refused.flatMap((result) => result.needsPerson ?? [])
      : undefined;
  if (person && !prepared.config.drafts)
    job.trace.emit({
      type: 'note',
      message: 'the change needs a person and could be a draft, but drafts are off: refused',
    });
  return {
    diff,
    results,
    ok,
    ...(person && prepared.config.drafts ? { needsPerson: person } : {}),
    fresh: judging?.failing,
    ...(changeTests ? { changeTests } : {}),
    ...(tree ? { tree } : {}),
  };
};
