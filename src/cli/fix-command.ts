import os from 'node:os';
import type { Command } from 'commander';
import { sandboxOption, type CliContext } from './context.ts';
import type { Live } from './live.ts';
import { terminalQuestionChannel } from '../questions/terminal.ts';
import { exitCodeOf, outcomeJson, outcomeText } from './output.ts';
import type { QuestionChannel } from '../questions/channel.ts';
import path from 'node:path';
import { budgetFlags, type BudgetFlagValues } from '../config/operator-bounds.ts';
import { createForge } from '../forge/index.ts';
import type { FailureReport } from '../intake/failure-report.ts';
import type { Progress } from '../job/deps.ts';
import type { Outcome } from '../job/outcome.ts';
import { buildJobDeps } from '../job/compose.ts';
import { runJob } from '../job/run-job.ts';
import type { Logger } from '../logger.ts';
import { parseModelSpec } from '../model/index.ts';
import { loadScript } from '../model/script.ts';
import { resolveRepoSource } from '../workspace/clone.ts';
import type { SandboxKind } from '../workspace/sandbox.ts';
import { formatExcerpt } from '../intake/actions-log.ts';
import { RegreenError } from '../errors.ts';
import { triageFile } from './triage-command.ts';
import { defaultDataDir, type Env } from '../config/env.ts';

export interface FixOptions extends BudgetFlagValues {
  readonly repo: string;
  readonly ref?: string;
  readonly command?: string;
  readonly job?: string;
  /** CI's log of the failure: the reproduction is compared with it. */
  readonly log?: string;
  readonly model?: string;
  readonly sandbox: SandboxKind;
  readonly dataDir?: string;
}

/** The excerpt of a saved CI log; a log that shows a success has no failure to reproduce. */
const ciExcerpt = (file: string): string => {
  const triage = triageFile(file);
  if (triage.verdict === 'success')
    throw new RegreenError('usage', `--log ${file}: the log shows a successful run, not a failure`);
  return formatExcerpt(triage.excerpt);
};

/** `regreen fix`: builds the report and the dependencies, then runs the one pipeline. */
export const fix = async (
  options: FixOptions,
  env: Env,
  logger: Logger,
  progress: Progress,
  signal: AbortSignal,
  questions?: QuestionChannel,
): Promise<Outcome> => {
  if (options.model !== undefined) {
    const spec = parseModelSpec(options.model);
    if (spec.kind === 'script') loadScript(spec.file); // a bad script is a usage error before any work
  }
  const budget = budgetFlags(options);
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir(env));
  const source = await resolveRepoSource(options.repo);
  const report: FailureReport = {
    repo: options.repo,
    trigger: 'cli',
    ...(options.ref ? { ref: options.ref } : {}),
    ...(options.command ? { command: options.command } : {}),
    ...(options.job ? { workflowJob: options.job } : {}),
    ...(options.log ? { errorExcerpt: ciExcerpt(options.log) } : {}),
  };
  return runJob(
    report,
    buildJobDeps({
      env,
      logger,
      forge: createForge({
        kind: 'local',
        target: source.location,
        localRoot: source.localRoot,
        dataDir,
      }),
      ...(options.model !== undefined ? { model: options.model } : {}),
      budget,
      sandbox: options.sandbox,
      dataDir,
      progress,
      signal,
      ...(questions ? { questions: { channel: questions } } : {}),
    }),
  );
};

/** `regreen fix`. */
export const registerFix = (
  program: Command,
  { env, logger, live, setExit, verbosity }: CliContext,
): void => {
  program
    .command('fix')
    .description(
      'reproduce a failure in a sandbox, fix it, prove the fix, and propose it on a new branch',
    )
    .option('--repo <dir|url>', 'the repository (a local path or a git URL)', '.')
    .option('--ref <ref>', 'branch, tag or sha to start from (default: HEAD)')
    .option('--command <cmd>', 'the failing command')
    .option('--job <name>', 'a workflow job whose run: steps are the failing command')
    .option(
      '--log <file>',
      "CI's log of the failure: a reproduction that fails differently stops before any model is asked",
    )
    .option(
      '--model <spec>',
      "anthropic[:NAME], openai:NAME, script:FILE or none (default: the config's, else anthropic when ANTHROPIC_API_KEY is set, else none)",
    )
    .option('--max-turns <n>', 'budget: model turns')
    .option('--max-cost <usd>', 'budget: cost in USD')
    .option('--max-minutes <n>', 'budget: wall time of the agent')
    .option('--max-input-tokens <n>', 'budget: input tokens (cache reads included)')
    .option('--max-output-tokens <n>', 'budget: output tokens')
    .addOption(sandboxOption())
    .option('--data-dir <dir>', "regreen's data dir (default: the user's cache dir)")
    .option('--json', 'print the outcome as JSON')
    .option('--no-questions', 'never ask a question at the terminal, even with a TTY')
    .action(
      async (opts: {
        questions: boolean;
        repo: string;
        ref?: string;
        command?: string;
        job?: string;
        log?: string;
        model: string;
        sandbox: SandboxKind;
        dataDir?: string;
        json?: boolean;
      }) => {
        // Ctrl-C or SIGTERM cancels the job: running commands' process groups are killed.
        const controller = new AbortController();
        const cancel = (): void => controller.abort();
        process.once('SIGINT', cancel).once('SIGTERM', cancel);
        // With a person at a terminal, ask_user asks there.
        const questions =
          opts.questions && process.stdin.isTTY && process.stderr.isTTY
            ? heldWhileAsking(
                terminalQuestionChannel({
                  input: process.stdin,
                  output: process.stderr,
                  user: os.userInfo().username,
                }),
                live,
              )
            : undefined;
        const outcome = await fix(
          opts,
          env,
          logger,
          live.progress,
          controller.signal,
          questions,
        ).finally(() => {
          process.off('SIGINT', cancel).off('SIGTERM', cancel);
        });
        process.stdout.write(
          `${opts.json ? JSON.stringify(outcomeJson(outcome), null, 2) : outcomeText(outcome, { verbose: verbosity === 'verbose' })}\n`,
        );
        setExit(exitCodeOf(outcome));
      },
    );
};

/** A question at the prompt holds the live line until it is answered. */
const heldWhileAsking = (channel: QuestionChannel, live: Live): QuestionChannel => {
  let release: (() => void) | undefined;
  return {
    ...channel,
    open: (id, question, timeoutMinutes) => {
      release ??= live.hold();
      return channel.open(id, question, timeoutMinutes);
    },
    close: async (id, question, answer) => {
      await channel.close(id, question, answer);
      release?.();
      release = undefined;
    },
  };
};
