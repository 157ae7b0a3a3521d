import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseDiff } from '../../checks/diff.ts';
import type { Spend } from '../agent/ledger.ts';
import { buildJobDeps } from '../cli/fix-command.ts';
import { traceCounts } from '../cli/trace-show.ts';
import type { Env } from '../config/env.ts';
import { describeError } from '../errors.ts';
import { createForge } from '../forge/index.ts';
import type { FailureReport } from '../intake/failure-report.ts';
import type { Outcome } from '../job/outcome.ts';
import { runJob } from '../job/run-job.ts';
import type { Logger } from '../logger.ts';
import { tailLines } from '../util/text.ts';
import { IDENTITY, workspaceDiff } from '../workspace/git.ts';
import { gitRemote } from '../workspace/git-remote.ts';
import { sandboxFactory } from '../workspace/sandbox-index.ts';
import { buildSandboxPolicy } from '../workspace/sandbox-policy.ts';
import type { Sandbox, SandboxKind } from '../workspace/sandbox.ts';
import { parseJunit, parseTap } from './test-reports.ts';
import { readTextInside, removeFileInside } from '../workspace/confined-fs.ts';
import { createSetupCache, type SetupCache } from '../workspace/setup-cache.ts';
import { detectSetupCommand } from '../workspace/setup-detect.ts';
import { reportHtml } from './report-html.ts';
import type { EvalTask } from './tasks.ts';
import { settingsOf } from '../config/env.ts';

export type Policy = 'agent' | 'oracle' | 'empty';

export interface CommandCheck {
  readonly command: string;
  readonly ok: boolean;
  readonly exitCode: number | null;
  readonly tail: string;
}

export interface TaskResult {
  readonly id: string;
  readonly kind: EvalTask['kind'];
  /** Every fail_to_pass passes and no pass_to_pass breaks. */
  readonly resolved: boolean;
  /** The harness could not run the task (clone, patch, sandbox): not a judgement of the fix. */
  readonly error?: string;
  readonly outcome?: Outcome['status'];
  readonly reason?: string;
  /** A pull request would have been proposed, but the person's tests fail. */
  readonly falseFix: boolean;
  /** Checks that failed (e.g. a weakened test caught). */
  readonly checksFired: readonly string[];
  readonly diffLines: number;
  readonly goldLines: number;
  /** Files the change touched that the gold patch did not. */
  readonly outsideGold: readonly string[];
  readonly failToPass: readonly CommandCheck[];
  readonly passToPass: readonly CommandCheck[];
  readonly spend?: Spend;
  /** From the trace: how the agent worked. */
  readonly testRuns: number;
  readonly failedEdits: number;
  readonly wallMs: number;
  readonly tracePath?: string;
  /** The change the job made, as a patch file. */
  readonly changePath?: string;
}

/** What judging needs: where the sandbox lives and what it starts from. */
export type JudgeOptions = Pick<EvalRunOptions, 'sandbox' | 'env' | 'logger' | 'signal'>;

export interface EvalRunOptions {
  readonly tasks: readonly EvalTask[];
  readonly policy: Policy;
  readonly model?: string;
  readonly concurrency: number;
  readonly disableTools: readonly string[];
  readonly outDir: string;
  readonly sandbox: SandboxKind;
  readonly env: Env;
  readonly logger: Logger;
  /** One line per finished task (the CLI prints it on stderr). */
  readonly progress?: (line: string) => void;
  readonly signal?: AbortSignal;
  /** Skip the tasks a previous report.json in the out dir already finished. */
  readonly resume?: boolean;
  /**
   * Throughput (default on): dependencies installed once per (repo, lockfiles)
   * and restored copy-on-write, and task repositories cloned from one mirror
   * per repository instead of from the source each time.
   */
  readonly reuse?: boolean;
  /**
   * Runs one task somewhere else (a worker taking it from the queue); by
   * default tasks run here, bounded by this machine's memory.
   */
  readonly runner?: (task: EvalTask) => Promise<TaskResult>;
}

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

const applyPatch = async (dir: string, patch: string, what: string): Promise<void> => {
  const file = path.join(dir, '.git', `regreen-${what.replace(/\W+/g, '-')}.patch`);
  writeFileSync(file, patch.endsWith('\n') ? patch : `${patch}\n`);
  try {
    await gitRemote(['apply', '--index', '--binary', '--whitespace=nowarn', file], { cwd: dir });
  } catch (error) {
    throw new Error(`the ${what} does not apply: ${describeError(error)}`, { cause: error });
  }
};

/** The model spec of a policy: the gold patch through apply_patch, nothing at all, or the agent's model. */
const policyModel = (
  policy: Policy,
  task: EvalTask,
  dir: string,
  model: string | undefined,
): string | undefined => {
  if (policy === 'agent') return model;
  const file = path.join(dir, `${policy}-script.json`);
  const turns =
    policy === 'oracle'
      ? [
          {
            content: [
              { type: 'text', text: 'Oracle: apply the person’s fix.' },
              {
                type: 'tool_use',
                id: 'oracle-1',
                name: 'apply_patch',
                input: { patch: task.gold_patch },
              },
            ],
          },
        ]
      : [];
  writeFileSync(file, JSON.stringify({ turns }));
  return `script:${file}`;
};

/** The whole TAP output of the test command (a check keeps only its tail). */
const readReportOutput = async (sandbox: Sandbox, task: EvalTask, cwd: string): Promise<string> =>
  (
    await sandbox.run({
      command: task.test_command,
      cwd,
      network: 'off',
      timeoutMs: task.timeout_s * 1000,
      env: task.env,
      maxOutputBytes: 16 * 1024 * 1024,
    })
  ).output;

/** Runs the person's tests on the change in a fresh clone and a fresh sandbox. */
export const judge = async (
  task: EvalTask,
  taskRepo: string,
  change: string,
  dir: string,
  options: JudgeOptions,
  name = 'judge',
  setupCache?: SetupCache,
): Promise<{ failToPass: CommandCheck[]; passToPass: CommandCheck[] }> => {
  const evalDir = path.join(dir, name);
  rmSync(evalDir, { recursive: true, force: true });
  await gitRemote(
    ['clone', '--quiet', '--no-hardlinks', '--branch', 'regreen-eval', taskRepo, evalDir],
    {
      cwd: dir,
    },
  );
  if (change.trim()) await applyPatch(evalDir, change, 'change');
  if (task.kind === 'hidden' && task.test_patch)
    await applyPatch(evalDir, task.test_patch, 'test patch');
  const privateDir = path.join(dir, `${name}-private`);
  mkdirSync(privateDir, { recursive: true });
  const sandbox = await sandboxFactory(
    options.sandbox,
    options.logger,
  )(
    buildSandboxPolicy({
      workspace: evalDir,
      privateDir,
      home: settingsOf(options.env).home ?? '/root',
      dataDir: path.join(dir, 'data'),
      registryHosts: [],
      baseEnv: options.env,
    }),
  );
  try {
    const setup = task.setup ?? detectSetupCommand(evalDir);
    if (setup) {
      const install = () =>
        sandbox.run({
          command: setup,
          cwd: evalDir,
          network: 'setup',
          timeoutMs: task.timeout_s * 1000,
          env: task.env,
        });
      await (setupCache
        ? setupCache.run({ workspace: evalDir, command: setup, setup: install })
        : install());
    }
    const check = async (command: string): Promise<CommandCheck> => {
      const result = await sandbox.run({
        command,
        cwd: evalDir,
        network: 'off',
        timeoutMs: task.timeout_s * 1000,
        env: task.env,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return {
        command,
        ok: result.exitCode === 0,
        exitCode: result.exitCode,
        tail: tailLines(result.output.trimEnd(), 20),
      };
    };
    if (task.test_reporter) {
      // Test names: one run of the test command, its report read by name. A JUnit report
      // is the run's own: any file at its path (shipped by the change) is removed first,
      // and it is read without following a symlink out of the workspace.
      const junit = path.join(evalDir, task.junit_path ?? 'junit.xml');
      if (task.test_reporter === 'junit') {
        try {
          removeFileInside(evalDir, junit);
        } catch {
          // nothing there
        }
      }
      const output = await readReportOutput(sandbox, task, evalDir);
      const report =
        task.test_reporter === 'tap'
          ? parseTap(output)
          : parseJunit(readTextInside(evalDir, junit) ?? '');
      const byName = (name: string): CommandCheck => {
        const status = report.get(name);
        return {
          command: name,
          ok: status === 'pass',
          exitCode: status === undefined ? null : status === 'pass' ? 0 : 1,
          tail:
            status === undefined
              ? `not in the ${task.test_reporter} report of \`${task.test_command}\``
              : status,
        };
      };
      return {
        failToPass: task.fail_to_pass.map(byName),
        passToPass: task.pass_to_pass.map(byName),
      };
    }
    const failToPass: CommandCheck[] = [];
    for (const command of task.fail_to_pass) failToPass.push(await check(command));
    const passToPass: CommandCheck[] = [];
    for (const command of task.pass_to_pass) passToPass.push(await check(command));
    return { failToPass, passToPass };
  } finally {
    await sandbox.dispose();
  }
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
    const baseSha = (await gitRemote(['rev-parse', 'HEAD'], { cwd: taskRepo })).trim();
    const report: FailureReport = {
      repo: taskRepo,
      ref: 'regreen-eval',
      command: task.test_command,
      trigger: 'eval',
      ...(task.kind === 'hidden'
        ? {
            task: { text: task.problem_statement ?? '', author: 'issue', source: 'issue' as const },
          }
        : {}),
    };
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
    // What the job changed, whether or not it proposed it: the workspace against the base.
    const workspace = outcome.tracePath
      ? path.join(path.dirname(outcome.tracePath), 'workspace')
      : '';
    let change = '';
    if (workspace && existsSync(workspace)) {
      change = await workspaceDiff(workspace, baseSha);
    }
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

export interface EvalReport {
  readonly policy: Policy;
  readonly model?: string;
  readonly tasks: readonly TaskResult[];
  readonly summary: {
    readonly total: number;
    readonly resolved: number;
    readonly rate: number;
    readonly falseFixes: number;
    readonly errors: number;
    readonly costUsd: number;
    readonly wallMs: number;
  };
}

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

/** Writes report.json, report.md and report.html for what has finished so far. */
const writeReport = (
  options: EvalRunOptions,
  finished: readonly TaskResult[],
  started: number,
): EvalReport => {
  const resolved = finished.filter((r) => r.resolved).length;
  const report: EvalReport = {
    policy: options.policy,
    ...(options.model ? { model: options.model } : {}),
    tasks: finished,
    summary: {
      total: finished.length,
      resolved,
      rate: finished.length > 0 ? resolved / finished.length : 0,
      falseFixes: finished.filter((r) => r.falseFix).length,
      errors: finished.filter((r) => r.error).length,
      costUsd: finished.reduce((sum, r) => sum + (r.spend?.costUsd ?? 0), 0),
      wallMs: Date.now() - started,
    },
  };
  writeFileSync(path.join(options.outDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(options.outDir, 'report.md'), reportMarkdown(report));
  writeFileSync(path.join(options.outDir, 'report.html'), reportHtml(report, options.tasks.length));
  return report;
};

export const reportMarkdown = (report: EvalReport): string => {
  const s = report.summary;
  const rows = report.tasks.map(
    (t) =>
      `| ${t.id} | ${t.kind} | ${t.error ? 'error' : t.resolved ? '✅ resolved' : '❌'} | ${t.outcome ?? '—'} | ${t.falseFix ? 'yes' : ''} | ${t.checksFired.join(', ')} | ${t.diffLines} / ${t.goldLines} | ${t.outsideGold.join(', ')} | ${t.spend?.turns ?? 0} | ${t.testRuns} | ${t.failedEdits} | $${(t.spend?.costUsd ?? 0).toFixed(4)} | ${(t.wallMs / 1000).toFixed(1)}s |`,
  );
  return [
    `# regreen eval — policy ${report.policy}${report.model ? `, model ${report.model}` : ''}`,
    '',
    `Resolved ${s.resolved} of ${s.total} (${(s.rate * 100).toFixed(1)}%); false fixes ${s.falseFixes}; harness errors ${s.errors}; cost $${s.costUsd.toFixed(4)}; ${(s.wallMs / 1000).toFixed(1)}s.`,
    '',
    '| task | kind | result | outcome | false fix | checks fired | diff / gold lines | outside gold | turns | test runs | failed edits | cost | time |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...report.tasks
      .filter((t) => t.error || !t.resolved)
      .map((t) =>
        [
          `## ${t.id}`,
          t.error ? `Harness error: ${t.error}` : `Outcome ${t.outcome ?? '?'}: ${t.reason ?? ''}`,
          ...[...t.failToPass, ...t.passToPass]
            .filter((c) => !c.ok)
            .map(
              (c) =>
                `- \`${c.command}\` exit ${c.exitCode ?? 'killed'}\n\n\`\`\`\n${c.tail}\n\`\`\``,
            ),
        ].join('\n\n'),
      ),
  ].join('\n');
};
