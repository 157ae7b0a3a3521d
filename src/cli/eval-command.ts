import { Option, type Command } from 'commander';
import { SUMMARIES } from './summaries.ts';
import { sandboxOption, type CliContext } from './context.ts';
import { compareReports, comparisonHtml, comparisonText, readReport } from '../eval/compare.ts';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RegreenError } from '../errors.ts';
import { randomUUID } from 'node:crypto';
import { queuedTaskRunner } from '../eval/queue-runner.ts';
import { runEval } from '../eval/run.ts';
import type { EvalReport, EvalRunOptions, Policy } from '../eval/types.ts';
import { bullJobQueue } from '../queue/bullmq.ts';
import { loadTasks } from '../eval/tasks.ts';
import { mineTasks } from '../eval/mine.ts';
import { validateTask, type Validation } from '../eval/validate.ts';
import type { Logger } from '../logger.ts';
import type { SandboxKind } from '../workspace/sandbox/sandbox.ts';
import type { Env } from '../config/env.ts';
import { settingsOf } from '../config/env.ts';

export interface EvalRunFlags {
  readonly tasks: string;
  readonly policy: Policy;
  readonly model?: string;
  readonly concurrency: string;
  readonly disableTools?: string;
  readonly out: string;
  readonly keepGoing?: boolean;
  readonly resume?: boolean;
  readonly reuse?: boolean;
  readonly sandbox: SandboxKind;
  /** `redis`: tasks go to `regreen worker` processes through REDIS_URL. */
  readonly queue?: 'local' | 'redis';
  /** `job`: a task naming its `ci_job` is that job replayed, with no command. */
  readonly replay?: 'command' | 'job';
}

/** `regreen eval run`: the task file's tasks through the bot's pipeline, judged by the person's tests. */
export const evalRun = async (
  flags: EvalRunFlags,
  env: Env,
  logger: Logger,
  signal: AbortSignal,
): Promise<EvalReport> => {
  const { tasks, errors } = loadTasks(flags.tasks);
  if (errors.length > 0) {
    const listed = errors.map((e) => `${flags.tasks}:${e.line}: ${e.message}`).join('\n');
    if (!flags.keepGoing)
      throw new RegreenError(
        'usage',
        `invalid task file:\n${listed}\n(--keep-going runs the valid tasks)`,
      );
    process.stderr.write(`[eval] skipping invalid tasks:\n${listed}\n`);
  }
  const concurrency = Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RegreenError(
      'usage',
      `--concurrency must be a positive whole number, not "${flags.concurrency}"`,
    );
  const options: EvalRunOptions = {
    tasks,
    policy: flags.policy,
    ...(flags.model ? { model: flags.model } : {}),
    concurrency,
    disableTools: (flags.disableTools ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    outDir: path.resolve(flags.out),
    sandbox: flags.sandbox,
    env,
    logger,
    progress: (line) => process.stderr.write(`${line}\n`),
    signal,
    ...(flags.resume ? { resume: true } : {}),
    ...(flags.replay ? { replay: flags.replay } : {}),
    ...(flags.reuse === false ? { reuse: false } : {}),
  };
  if (flags.queue !== 'redis') return runEval(options);
  const redisUrl = settingsOf(env).redisUrl;
  if (!redisUrl)
    throw new RegreenError(
      'usage',
      '--queue redis needs REDIS_URL (the Redis the workers take jobs from)',
    );
  const queue = await bullJobQueue({ url: redisUrl });
  try {
    const runId = `${path.resolve(flags.out)} ${randomUUID()}`;
    return await runEval({ ...options, runner: queuedTaskRunner(queue, options, runId) });
  } finally {
    await queue.close();
  }
};

export const evalText = (report: EvalReport, out: string): string =>
  [
    `policy ${report.policy}: resolved ${report.summary.resolved}/${report.summary.total} (${(report.summary.rate * 100).toFixed(1)}%), false fixes ${report.summary.falseFixes}, harness errors ${report.summary.errors}, $${report.summary.costUsd.toFixed(4)}`,
    ...report.tasks.map(
      (t) =>
        `  ${t.resolved ? 'resolved  ' : t.error ? 'error     ' : 'unresolved'} ${t.id}${t.error ? `: ${t.error}` : ` (${t.outcome ?? '?'})`}`,
    ),
    `report: ${path.join(path.resolve(out), 'report.md')}`,
  ].join('\n');

/** `regreen eval validate`: which tasks are valid (fail at the base, pass with the gold patch, stable). */
export const evalValidate = async (
  flags: { tasks: string; sandbox: SandboxKind; work?: string },
  env: Env,
  logger: Logger,
): Promise<Validation[]> => {
  const { tasks, errors } = loadTasks(flags.tasks);
  const invalidLines: Validation[] = errors.map((e) => ({
    id: `line ${e.line}`,
    valid: false,
    reason: `task file: ${e.message}`,
  }));
  const work = path.resolve(
    flags.work ?? path.join(os.tmpdir(), `regreen-validate-${process.pid}`),
  );
  const results: Validation[] = [];
  for (const task of tasks) {
    results.push(
      await validateTask(task, path.join(work, task.id), { sandbox: flags.sandbox, env, logger }),
    );
    process.stderr.write(`[eval] validated ${task.id}\n`);
  }
  return [...invalidLines, ...results];
};

export const validationText = (results: readonly Validation[]): string =>
  results
    .map((r) => `${r.valid ? 'valid  ' : 'INVALID'} ${r.id}${r.reason ? `: ${r.reason}` : ''}`)
    .join('\n');

/** `regreen eval mine`: valid tasks from a repository's history, written as JSONL. */
export interface EvalMineFlags {
  readonly repo: string;
  readonly since?: string;
  readonly max: string;
  readonly testCommand?: string;
  readonly out: string;
  readonly sandbox: SandboxKind;
}

export const evalMine = async (
  flags: EvalMineFlags,
  env: Env,
  logger: Logger,
): Promise<{ tasks: number; rejected: number; out: string }> => {
  const max = Number(flags.max);
  if (!Number.isInteger(max) || max < 1)
    throw new RegreenError('usage', `--max must be a positive whole number, not "${flags.max}"`);
  const work = path.join(os.tmpdir(), `regreen-mine-${process.pid}`);
  const out = path.resolve(flags.out);
  // Each task (and, beside it, why each other candidate was rejected, with its command and the
  // end of its output) is written as soon as it is judged: stopping a long run loses nothing.
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, '');
  writeFileSync(`${out}.rejected.jsonl`, '');
  const mined = await mineTasks({
    repo: flags.repo,
    ...(flags.since ? { since: flags.since } : {}),
    max,
    ...(flags.testCommand ? { testCommand: flags.testCommand } : {}),
    validate: (task) =>
      validateTask(task, path.join(work, task.id), { sandbox: flags.sandbox, env, logger }),
    progress: (line) => process.stderr.write(`${line}\n`),
    judged: (result) =>
      'task' in result
        ? appendFileSync(out, `${JSON.stringify(result.task)}\n`)
        : appendFileSync(`${out}.rejected.jsonl`, `${JSON.stringify(result.rejection)}\n`),
  });
  return { tasks: mined.tasks.length, rejected: mined.rejected.length, out };
};

/** `regreen eval`. */
export const registerEval = (program: Command, { env, logger, setExit }: CliContext): void => {
  const evalCommand = program.command('eval').description(SUMMARIES.eval);
  evalCommand
    .command('run')
    .description("run tasks through the bot's pipeline and judge each by the person's tests")
    .requiredOption('--tasks <file>', 'a JSONL task file')
    .addOption(
      new Option('--policy <policy>', 'agent, oracle (the gold patch) or empty (no change)')
        .choices(['agent', 'oracle', 'empty'])
        .default('agent'),
    )
    .option('--model <spec>', 'the model of the agent policy (as regreen fix --model)')
    .option('--concurrency <n>', 'tasks at once', '2')
    .option('--disable-tools <names>', 'tools withheld from the agent, comma separated (ablations)')
    .requiredOption('--out <dir>', 'where the workspaces and report.json / report.md go')
    .option('--keep-going', 'run the valid tasks of a task file with broken lines')
    .option('--resume', "skip the tasks the out dir's report.json already finished")
    .option('--no-reuse', 'clone and set up every task from scratch (no mirror, no setup cache)')
    .addOption(
      new Option(
        '--replay <what>',
        "command (the task's test command) or job (its ci_job replayed, no command)",
      )
        .choices(['command', 'job'])
        .default('command'),
    )
    .addOption(
      new Option(
        '--queue <where>',
        'local, or redis: tasks go to `regreen worker` processes (REDIS_URL)',
      )
        .choices(['local', 'redis'])
        .default('local'),
    )
    .addOption(sandboxOption())
    .option('--json', 'print the report as JSON')
    .action(async (opts: EvalRunFlags & { json?: boolean }) => {
      const controller = new AbortController();
      const cancel = (): void => controller.abort();
      process.once('SIGINT', cancel).once('SIGTERM', cancel);
      const report = await evalRun(opts, env, logger, controller.signal).finally(() => {
        process.off('SIGINT', cancel).off('SIGTERM', cancel);
      });
      process.stdout.write(
        `${opts.json ? JSON.stringify(report, null, 2) : evalText(report, opts.out)}\n`,
      );
      setExit(report.summary.errors > 0 ? 1 : 0);
    });

  evalCommand
    .command('validate')
    .description(
      'mark tasks invalid unless fail_to_pass fails at the base and passes with the gold patch, twice',
    )
    .requiredOption('--tasks <file>', 'a JSONL task file')
    .addOption(sandboxOption())
    .option('--json', 'print the validations as JSON')
    .action(async (opts: { tasks: string; sandbox: SandboxKind; json?: boolean }) => {
      const results = await evalValidate(opts, env, logger);
      process.stdout.write(
        `${opts.json ? JSON.stringify(results, null, 2) : validationText(results)}\n`,
      );
      setExit(results.every((r) => r.valid) ? 0 : 1);
    });

  evalCommand
    .command('mine')
    .description(
      'tasks from the commits of a repository that change both tests and sources, validated by running them',
    )
    .requiredOption('--repo <dir>', 'a local git repository')
    .option('--since <rev>', 'only commits after this one')
    .option('--max <n>', 'stop after this many valid tasks', '20')
    .option('--test-command <cmd>', 'the runner, given the changed test files as arguments')
    .requiredOption('--out <file>', 'the JSONL task file to write')
    .addOption(sandboxOption())
    .action(async (opts: EvalMineFlags) => {
      const mined = await evalMine(opts, env, logger);
      process.stdout.write(
        `${mined.tasks} valid task(s) written to ${mined.out}; ${mined.rejected} candidate(s) rejected\n`,
      );
      setExit(0);
    });

  evalCommand
    .command('compare <a> <b>')
    .description(
      'what changed between two eval runs (report.json or its out dir): newly resolved, newly failing, cost and turns; exit 1 when B lost a task A resolved',
    )
    .option('--html <file>', 'also write the comparison as a page')
    .option('--json', 'print the comparison as JSON')
    .action((a: string, b: string, opts: { html?: string; json?: boolean }) => {
      const comparison = compareReports(
        { label: a, report: readReport(a) },
        { label: b, report: readReport(b) },
      );
      if (opts.html) writeFileSync(opts.html, comparisonHtml(comparison));
      process.stdout.write(
        `${
          opts.json
            ? JSON.stringify(
                {
                  counts: comparison.counts,
                  costDeltaUsd: comparison.costDeltaUsd,
                  turnsDelta: comparison.turnsDelta,
                  regressed: comparison.regressed,
                  tasks: comparison.tasks.map((t) => ({
                    id: t.id,
                    change: t.change,
                    costDeltaUsd: t.costDeltaUsd,
                    turnsDelta: t.turnsDelta,
                  })),
                },
                null,
                2,
              )
            : comparisonText(comparison)
        }\n`,
      );
      setExit(comparison.regressed ? 1 : 0);
    });
};
