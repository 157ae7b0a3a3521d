import path from 'node:path';
import os from 'node:os';
import { SUMMARIES } from './summaries.ts';
import type { Command } from 'commander';
import { sandboxOption, type CliContext, dataDirOption } from './context.ts';
import type { Live } from './live.ts';
import { terminalQuestionChannel } from '../questions/terminal.ts';
import { exitCodeOf, outcomeJson, outcomeText } from './output.ts';
import type { QuestionChannel } from '../questions/channel.ts';
import type { SandboxKind } from '../workspace/sandbox/sandbox.ts';

/** `regreen fix`. */
export const registerFix = (
  program: Command,
  { env, logger, live, setExit, verbosity }: CliContext,
): void => {
  program
    .command('fix')
    .description(SUMMARIES.fix)
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
      "anthropic[:NAME], openai:NAME, script:FILE or none (default: $REGREEN_MODEL, else the config's, else anthropic when ANTHROPIC_API_KEY is set, else none)",
    )
    .option('--max-turns <n>', 'budget: model turns')
    .option('--max-cost <usd>', 'budget: cost in USD')
    .option('--max-minutes <n>', 'budget: wall time of the agent')
    .option('--max-input-tokens <n>', 'budget: input tokens (cache reads included)')
    .option('--max-output-tokens <n>', 'budget: output tokens')
    .addOption(sandboxOption())
    .addOption(dataDirOption())
    .option('--json', 'print the outcome as JSON')
    .option(
      '--dry-run',
      'write no branch and no file: print the patch and the PR text (with --json, in the object)',
    )
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
        dryRun?: boolean;
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
        const { fix } = await import('./fix-run.ts');
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
          `${opts.json ? JSON.stringify(outcomeJson(outcome), null, 2) : outcomeText(outcome, { verbose: verbosity === 'verbose', ...(opts.dataDir ? { dataDir: path.resolve(opts.dataDir) } : {}) })}\n`,
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
