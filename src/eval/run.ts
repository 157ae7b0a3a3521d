import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDiff } from '../../checks/diff.ts';
import { buildJobDeps } from '../job/compose.ts';
import { traceCounts } from '../observe/trace-read.ts';
import { describeError } from '../errors.ts';
import { createForge } from '../forge/index.ts';
import type { FailureReport } from '../intake/failure-report.ts';
import { runJob } from '../job/run-job.ts';
import { CHANGE_FILE } from '../job/stages/scratch.ts';
import type { EvalTask } from './tasks.ts';

import type { EvalReport, EvalRunOptions, TaskResult } from './types.ts';
import { judge } from './judge.ts';
import { prepareTaskRepo, sharedFor, type Shared } from './task-repo.ts';
import { writeReport } from './report.ts';
import { policyModel } from './policy.ts';

/**
 * What the task hands the pipeline: its test command as the failing command, or, replaying its
 * CI job (`replay: 'job'`, the task naming `ci_job`), that job with no command at all, as
 * `regreen fix --job` does. A task without a `ci_job` keeps its command either way.
 */
export const taskReport = (
  task: EvalTask,
  taskRepo: string,
  replay: 'command' | 'job',
): FailureReport => ({
  repo: taskRepo,
  ref: 'regreen-eval',
  ...(replay === 'job' && task.ci_job !== undefined
    ? { workflowJob: jobName(task.ci_job) }
    : { command: task.test_command }),
  trigger: 'eval',
  ...(task.kind === 'hidden'
    ? { task: { text: task.problem_statement ?? '', author: 'issue', source: 'issue' as const } }
    : {}),
});

/** `test.yml:test` names the job `test` of test.yml; `--job` takes the job's name. */
const jobName = (ciJob: string): string => {
  const colon = ciJob.indexOf(':');
  return colon > 0 && /\.ya?ml$/.test(ciJob.slice(0, colon)) ? ciJob.slice(colon + 1) : ciJob;
};

/** One task through the bot's own pipeline (runJob and its checks), then judged by the person's tests. */
export const runTask = async (
  task: EvalTask,
  options: EvalRunOptions,
  shared: Shared = sharedFor({ ...options, reuse: false }),
): Promise<TaskResult> => {
  const started = Date.now();
  const dir = path.join(options.outDir, 'tasks', task.id);
  const taskRepo = path.join(dir, 'repo');
  const dataDir = path.join(dir, 'data');
  const gold = parseDiff(task.gold_patch);
  const goldFiles = new Set(gold.files.map((file) => file.path));
  const base = {
    id: task.id,
    kind: task.kind,
    goldLines: gold.changedLines,
  };
  try {
    await prepareTaskRepo(task, taskRepo, await shared.mirror(task.repo));
    const report = taskReport(task, taskRepo, options.replay ?? 'command');
    const model = policyModel(options.policy, task, dir, options.model);
    const outcome = await runJob(
      report,
      buildJobDeps({
        env: { ...options.env, ...task.env },
        logger: options.logger,
        forge: createForge({ kind: 'local', target: taskRepo, localRoot: taskRepo, dataDir }),
        ...(model ? { model } : {}),
        budget: {},
        disabledTools: options.disableTools,
        recipes: options.policy === 'agent',
        commandTimeoutSeconds: task.timeout_s,
        ...(shared.setupCache ? { setupCache: shared.setupCache } : {}),
        sandbox: options.sandbox,
        dataDir,
        progress: () => undefined,
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    );
    // What the job changed, whether or not it proposed it: the workspace against the base,
    // which the job kept beside its trace when it ended (its trees may be on a volume now gone).
    const kept = outcome.tracePath
      ? path.join(path.dirname(outcome.tracePath), CHANGE_FILE)
      : undefined;
    const change = kept && existsSync(kept) ? readFileSync(kept, 'utf8') : '';
    const changePath = path.join(dir, 'change.patch');
    writeFileSync(changePath, change);
    const judged = await judge(task, taskRepo, change, dir, options, 'judge', shared.setupCache);
    const changed = parseDiff(change);
    const resolved = judged.failToPass.every((c) => c.ok) && judged.passToPass.every((c) => c.ok);
    const checks =
      outcome.status === 'proposed' || outcome.status === 'diagnosis' ? outcome.checks : [];
    return {
      ...base,
      resolved,
      outcome: outcome.status,
      ...('reason' in outcome ? { reason: outcome.reason } : {}),
      ...(outcome.status === 'proposed' && outcome.needsPerson ? { draft: true } : {}),
      falseFix: outcome.status === 'proposed' && !resolved,
      checksFired: checks.filter((c) => !c.ok).map((c) => c.name),
      diffLines: changed.changedLines,
      outsideGold: changed.files.map((file) => file.path).filter((file) => !goldFiles.has(file)),
      ...judged,
      ...(outcome.spend ? { spend: outcome.spend } : {}),
      ...countsOf(outcome.tracePath),
      wallMs: Date.now() - started,
      ...(outcome.tracePath ? { tracePath: outcome.tracePath } : {}),
      changePath,
    };
  } catch (error) {
    return {
      ...harnessError(task, describeError(error), Date.now() - started),
      goldLines: base.goldLines,
    };
  }
};

/** A task the harness could not run through (clone, patch, a worker that failed): no verdict. */
export const harnessError = (task: EvalTask, error: string, wallMs = 0): TaskResult => ({
  id: task.id,
  kind: task.kind,
  resolved: false,
  error,
  falseFix: false,
  checksFired: [],
  diffLines: 0,
  goldLines: 0,
  outsideGold: [],
  failToPass: [],
  passToPass: [],
  testRuns: 0,
  failedEdits: 0,
  wallMs,
});

const countsOf = (tracePath: string | undefined): { testRuns: number; failedEdits: number } => {
  if (!tracePath || !existsSync(tracePath)) return { testRuns: 0, failedEdits: 0 };
  const counts = traceCounts(readFileSync(tracePath, 'utf8'));
  return { testRuns: counts.testRuns, failedEdits: counts.failedEdits };
};

/** Runs the tasks with bounded concurrency and writes report.json and report.md into the out dir. */
export const runEval = async (options: EvalRunOptions): Promise<EvalReport> => {
  const started = Date.now();
  mkdirSync(options.outDir, { recursive: true });
  const results: TaskResult[] = new Array<TaskResult>(options.tasks.length);
  const previous = options.resume ? readPrevious(options.outDir) : new Map<string, TaskResult>();
  options.tasks.forEach((task, index) => {
    const done = previous.get(task.id);
    if (done && !done.error) results[index] = done;
  });
  const write = (): EvalReport => writeReport(options, results.filter(Boolean), started);
  const shared = sharedFor(options);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const index = next;
      next += 1;
      const task = options.tasks[index];
      if (!task || options.signal?.aborted) return;
      if (results[index]) {
        done += 1;
        continue;
      }
      const result = options.runner
        ? await options.runner(task)
        : await runTask(task, options, shared);
      // A task cut short by Ctrl-C is not a result: --resume runs it again.
      if (options.signal?.aborted) return;
      results[index] = result;
      done += 1;
      write();
      const resolvedSoFar = results.filter((r) => r?.resolved).length;
      const spent = results.reduce((sum, r) => sum + (r?.spend?.costUsd ?? 0), 0);
      options.progress?.(
        `[eval] ${done}/${options.tasks.length} ${task.id}: ${result.error ? `error: ${result.error}` : result.resolved ? 'resolved' : `not resolved (${result.outcome ?? '?'})`}; ${resolvedSoFar} resolved, ${((Date.now() - started) / 1000).toFixed(0)}s, $${spent.toFixed(4)}`,
      );
    }
  };
  // Tasks run by workers elsewhere are bounded by the flag, not by this machine's memory.
  const lanes = options.runner ? options.concurrency : effectiveConcurrency(options.concurrency);
  await Promise.all(Array.from({ length: lanes }, () => worker()));
  return write();
};

/** A task (clone, dependencies, test processes) is given about 1 GiB: concurrency is bounded by memory too. */
const MEMORY_PER_TASK = 1024 ** 3;

export const effectiveConcurrency = (wanted: number, totalMemory = os.totalmem()): number =>
  Math.max(1, Math.min(wanted, Math.floor(totalMemory / MEMORY_PER_TASK)));

const readPrevious = (outDir: string): Map<string, TaskResult> => {
  try {
    const report = JSON.parse(readFileSync(path.join(outDir, 'report.json'), 'utf8')) as EvalReport;
    return new Map(report.tasks.map((t) => [t.id, t]));
  } catch {
    return new Map();
  }
};
