import path from 'node:path';
import { RegreenError } from '../errors.ts';
import { runEval, type EvalReport, type Policy } from '../eval/run.ts';
import { loadTasks } from '../eval/tasks.ts';
import type { Logger } from '../logger.ts';
import type { SandboxKind } from '../workspace/sandbox.ts';
import type { Env } from './environment.ts';

export interface EvalRunFlags {
  readonly tasks: string;
  readonly policy: Policy;
  readonly model?: string;
  readonly concurrency: string;
  readonly disableTools?: string;
  readonly out: string;
  readonly keepGoing?: boolean;
  readonly sandbox: SandboxKind;
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
  return runEval({
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
  });
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
