import os from 'node:os';
import { terminalQuestionChannel } from '../questions/terminal.ts';
import { Command, Option } from 'commander';
import type { Logger } from '../logger.ts';
import type { Progress } from '../job/deps.ts';
import { SANDBOX_KINDS } from '../workspace/sandbox-index.ts';
import type { SandboxKind } from '../workspace/sandbox.ts';
import { sandboxRun } from './adhoc-sandbox.ts';
import type { Env } from '../config/env.ts';
import { fix } from './fix-command.ts';
import { exitCodeOf, outcomeJson, outcomeText } from './output.ts';
import { callTool, listTools } from './tools-command.ts';
import { runAction } from '../entrypoints/action.ts';
import {
  evalRun,
  evalText,
  evalMine,
  evalValidate,
  validationText,
  type EvalMineFlags,
  type EvalRunFlags,
} from './eval-command.ts';
import { serve } from '../entrypoints/app.ts';
import { startWorker } from '../entrypoints/worker.ts';
import { showTrace } from './trace-show.ts';
import { triageExitCode, triageFile, triageJson, triageText } from './triage-command.ts';
import { settingsOf } from '../config/env.ts';

const sandboxOption = () =>
  new Option('--sandbox <kind>', 'asrt (bubblewrap) or none')
    .choices(SANDBOX_KINDS)
    .default('asrt');
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
const progress: Progress = ({ stage, outcome, durationMs }) =>
  process.stderr.write(
    `[regreen] ${stage.padEnd(9)} ${seconds(durationMs).padStart(7)}  ${outcome}\n`,
  );

/** The commands of `regreen`; each action reports its exit code through `setExit`. */
export const buildProgram = (
  env: Env,
  logger: Logger,
  setExit: (code: number) => void,
): Command => {
  const program = new Command('regreen')
    .description('Turns red builds green.')
    .exitOverride()
    .showHelpAfterError();

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
            ? terminalQuestionChannel({
                input: process.stdin,
                output: process.stderr,
                user: os.userInfo().username,
              })
            : undefined;
        const outcome = await fix(
          opts,
          env,
          logger,
          progress,
          controller.signal,
          questions,
        ).finally(() => {
          process.off('SIGINT', cancel).off('SIGTERM', cancel);
        });
        process.stdout.write(
          `${opts.json ? JSON.stringify(outcomeJson(outcome), null, 2) : outcomeText(outcome)}\n`,
        );
        setExit(exitCodeOf(outcome));
      },
    );

  program
    .command('serve')
    .description(
      'run the GitHub App: APP_ID, PRIVATE_KEY and WEBHOOK_SECRET from the environment (see app.yml)',
    )
    .option('--port <n>', 'port to listen on (default: $PORT, else 3000)')
    .action(async (opts: { port?: string }) => {
      const served = await serve(env, logger, {
        ...(opts.port !== undefined ? { port: Number(opts.port) } : {}),
      });
      process.stderr.write(`[regreen] App listening on ${served.url}/api/github/webhooks\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => resolve();
        process.once('SIGINT', stop).once('SIGTERM', stop);
      });
      // In-process jobs finish first; with Redis they belong to the workers.
      if (served.queue.kind === 'memory') await served.queue.idle();
      await served.close();
      setExit(0);
    });

  program
    .command('worker')
    .description('run queued jobs from Redis (REDIS_URL); start any number, on any machine')
    .option(
      '--concurrency <n>',
      'jobs at once in this process (default: $REGREEN_CONCURRENCY, else 1)',
    )
    .option('--processor <file>', 'a module whose processor runs `custom` jobs')
    .option(
      '--grace <seconds>',
      'on SIGTERM, how long the current jobs may finish before they are handed back',
      '600',
    )
    .action(async (opts: { concurrency?: string; processor?: string; grace: string }) => {
      const worker = await startWorker(env, logger, {
        ...(opts.concurrency !== undefined ? { concurrency: Number(opts.concurrency) } : {}),
        ...(opts.processor ? { processor: opts.processor } : {}),
        ...(settingsOf(env).lockMs ? { lockMs: Number(settingsOf(env).lockMs) } : {}),
      });
      process.stderr.write(`[regreen] worker ${process.pid} taking jobs\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => resolve();
        process.once('SIGINT', stop).once('SIGTERM', stop);
      });
      process.stderr.write('[regreen] worker stopping: finishing the current jobs\n');
      await worker.stop(Number(opts.grace) * 1000);
      setExit(0);
    });

  const evalCommand = program
    .command('eval')
    .description('measure regreen on fixes people already made');
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

  program
    .command('action')
    .description('run as the GitHub Action (inputs from INPUT_*, the event from GITHUB_EVENT_PATH)')
    .action(async () => {
      setExit(await runAction(env, logger));
    });

  program
    .command('triage')
    .description(
      'explain a red build: the failing step, the recognised failures, an excerpt and the fingerprint of a CI log',
    )
    .requiredOption(
      '--log <file>',
      'a CI job log: GitHub Actions, Travis CI, Jenkins, or any build output',
    )
    .option(
      '--baseline <file>',
      "the log of the same job's last green run: lines new in --log rank first",
    )
    .option('--json', 'print the triage as JSON')
    .addHelpText(
      'after',
      '\nExit codes: 0 a failure located, 1 no failure located (the excerpt holds the best guesses, or the log shows a success), 2 usage error.',
    )
    .action((opts: { log: string; baseline?: string; json?: boolean }) => {
      const triage = triageFile(opts.log, opts.baseline);
      process.stdout.write(
        `${opts.json ? JSON.stringify(triageJson(triage), null, 2) : triageText(triage)}\n`,
      );
      setExit(triageExitCode(triage));
    });

  program
    .command('trace')
    .description("a job's trace")
    .command('show <file>')
    .description('a readable summary: stages, turns, tools used, failed edits, test runs, spend')
    .action((file: string) => {
      process.stdout.write(`${showTrace(file)}\n`);
      setExit(0);
    });

  const tools = program.command('tools').description("the agent's tools");
  tools
    .command('list')
    .option('--level <level>', 'read, write or exec')
    .option('--json', 'print the definitions as JSON')
    .action(async (opts: { level?: string; json?: boolean }) => {
      process.stdout.write(`${await listTools(opts.level, opts.json === true, logger)}\n`);
      setExit(0);
    });
  tools
    .command('call <name>')
    .requiredOption('--workspace <dir>', 'the folder the tool works in')
    .requiredOption('--input <json>', "the tool's input as JSON")
    .addOption(sandboxOption())
    .option('--data-dir <dir>', "regreen's data dir")
    .action(
      async (
        name: string,
        opts: { workspace: string; input: string; sandbox: SandboxKind; dataDir?: string },
      ) => {
        const result = await callTool({ name, ...opts, env, logger });
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        setExit(result.isError ? 1 : 0);
      },
    );

  program
    .command('sandbox')
    .description('the sandbox commands run in')
    .command('run')
    .description('run a command exactly as the sandbox runs it')
    .requiredOption('--workspace <dir>', 'the folder that is writable')
    .addOption(
      new Option('--network <mode>', 'off, or setup (the registries of your npm/pip config)')
        .choices(['off', 'setup'])
        .default('off'),
    )
    .addOption(sandboxOption())
    .option('--timeout <seconds>', 'time limit', '600')
    .option('--data-dir <dir>', "regreen's data dir")
    .argument('<command...>', 'the command (after --)')
    .action(
      async (
        words: string[],
        opts: {
          workspace: string;
          network: 'off' | 'setup';
          sandbox: SandboxKind;
          timeout: string;
          dataDir?: string;
        },
      ) => {
        const result = await sandboxRun({ ...opts, argv: words, env, logger });
        process.stdout.write(result.output);
        if (result.timedOut) process.stderr.write(`[regreen] timed out after ${opts.timeout}s\n`);
        setExit(result.exitCode ?? 124);
      },
    );

  return program;
};
