import type { Command } from 'commander';
import { SUMMARIES } from '../cli/summaries.ts';
import type { CliContext } from '../cli/context.ts';
import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { budgetFlags } from '../config/operator-bounds.ts';
import { buildJobDeps } from '../job/compose.ts';
import type { Env } from '../config/env.ts';
import { RegreenError, describeError, isRegreenError } from '../errors.ts';
import { exitCodeOf, exitCodeOfError } from '../cli/output.ts';
import { ACTION_PACING, createGitHubClient } from '../forge/github/client.ts';
import { ensureUserNamespaces } from '../workspace/sandbox/userns.ts';
import { failureTargetOf, runActionFailures } from '../github/action-run.ts';
import { actionAnnotation, actionOutcomeLines, actionSummary } from '../github/action-outcome.ts';
import { guardsFromEnv } from '../github/settings.ts';
import { createWorkflowLog, type WorkflowLog } from '../github/workflow-log.ts';
import { createLogger, type Logger } from '../logger.ts';
import { readableLogs } from '../cli/live.ts';
import { sandboxKindOf } from '../workspace/sandbox/kinds.ts';
import type { SandboxKind } from '../workspace/sandbox/sandbox.ts';
import {
  actionInputOf as inputOf,
  defaultToolsDir,
  settingsOf,
  unknownSettings,
} from '../config/env.ts';
import { hostRootsOf } from '../util/host-paths.ts';

/** Appends `name<<delimiter` blocks to the file the runner reads outputs from. */
const setOutputs = (file: string | undefined, outputs: Record<string, string>): void => {
  if (!file) return;
  for (const [name, value] of Object.entries(outputs)) {
    const delimiter = `regreen_${randomBytes(8).toString('hex')}`;
    appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
  }
};

/** What the Action prints through: the workflow log, and a logger whose records go through it too. */
export interface ActionLog {
  readonly log: WorkflowLog;
  readonly logger: Logger;
}

/**
 * The Action's log on stderr (the one stream: the runner reads stdout apart).
 * Log records are lines of the same log, so nothing a job logs acts as a
 * workflow command either.
 */
export const openActionLog = (env: Env, verbose = false): ActionLog => {
  const log = createWorkflowLog({ write: (text) => process.stderr.write(text) });
  const logger = createLogger({
    level: settingsOf(env).logLevel ?? (verbose ? 'debug' : 'warn'),
    destination: readableLogs(log.print, false),
  });
  for (const warning of unknownSettings(env)) logger.warn(warning);
  return { log, logger };
};

/**
 * The GitHub Action: in a `workflow_run` workflow it reads the failed run's
 * logs; as a step after a failing step (`if: failure()`) it reproduces the
 * test command. The log: a group per stage, then each result in a few lines
 * with its next steps, and an annotation. Outputs: outcome, pr-url,
 * fingerprint; a job summary. Returns the process exit code: 0 unless
 * regreen itself failed, then the CLI's code for that error (2 usage, 4 error).
 */
export const runAction = async (env: Env, { log, logger }: ActionLog): Promise<number> => {
  const input = inputOf(env);
  const token = input('github-token');
  if (!token)
    throw new RegreenError(
      'usage',
      "the github-token input is empty: the secret it names (e.g. secrets.REGREEN_TOKEN) is not set in this repository, or the input is missing; by default it is the workflow's GITHUB_TOKEN",
    );
  const sandbox: SandboxKind = sandboxKindOf(input('sandbox'), (message) => logger.warn(message));
  if (sandbox === 'bubblewrap') ensureUserNamespaces({ logger });
  const settings = settingsOf(env);
  const eventPath = settings.githubEventPath;
  if (!eventPath)
    throw new RegreenError('usage', 'GITHUB_EVENT_PATH is not set: run regreen as an Action');
  const event: unknown = JSON.parse(readFileSync(eventPath, 'utf8'));
  const dataDir =
    settings.dataDir ?? path.join(settings.runnerTemp ?? settings.home ?? '/tmp', 'regreen');
  const client = createGitHubClient({
    auth: { kind: 'token', token },
    pacing: ACTION_PACING,
    hostRoots: hostRootsOf({
      dataDir,
      toolsDir: defaultToolsDir(env),
      ...(settings.home ? { home: settings.home } : {}),
    }),
    ...(settings.githubApiUrl ? { baseUrl: settings.githubApiUrl } : {}),
    logger,
  });
  // A model's key and server, from inputs (a step's `env:` works too; an input wins).
  const fromInputs: Record<string, string> = {
    ANTHROPIC_API_KEY: input('anthropic-api-key'),
    OPENAI_API_KEY: input('openai-api-key'),
    OPENAI_BASE_URL: input('openai-base-url'),
  };
  const jobEnv: Env = {
    ...env,
    ...Object.fromEntries(Object.entries(fromInputs).filter(([, value]) => value !== '')),
  };
  // REGREEN_DATA_DIR as everywhere, else the runner's temp folder (emptied after each job).
  const protectedPaths = input('protected-paths')
    .split(/[\n,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  // The input, else REGREEN_MODEL from the step's `env:` (as the configuration reference says).
  const model = input('model') || settings.model;
  const budget = budgetFlags({
    ...(input('max-turns') ? { maxTurns: input('max-turns') } : {}),
    ...(input('max-cost') ? { maxCost: input('max-cost') } : {}),
    ...(input('max-minutes') ? { maxMinutes: input('max-minutes') } : {}),
  });
  const results = await runActionFailures({
    client,
    token,
    eventName: settings.githubEventName ?? '',
    event,
    fallbackTarget: () => failureTargetOf(env, event),
    testCommand: input('test-command'),
    guards: guardsFromEnv({
      REGREEN_MAX_ATTEMPTS: input('max-attempts'),
      REGREEN_MAX_OPEN_PRS: input('max-open-prs'),
      REGREEN_MAX_PRS_PER_HOUR: input('max-prs-per-hour'),
    }),
    logger,
    deps: (forge, progress) =>
      buildJobDeps({
        env: jobEnv,
        logger,
        forge,
        ...(model ? { model } : {}),
        budget,
        protectedPaths,
        sandbox,
        dataDir,
        // The commit's check run, and the workflow log's groups.
        progress: (event) => {
          progress(event);
          log.progress(event);
        },
      }),
  });
  const summary = actionSummary(results);
  setOutputs(settings.githubOutput, summary.outputs);
  if (settings.githubStepSummary)
    appendFileSync(settings.githubStepSummary, `${summary.markdown}\n`);
  log.print(results.flatMap(actionOutcomeLines).join('\n'));
  for (const annotation of results.flatMap((result) => actionAnnotation(result) ?? []))
    log.annotate(annotation.level, annotation.message);
  // A job that ended in an error exits as the CLI's would (the same table); anything else is 0.
  const failed = results.find(
    (result) => result.kind === 'ran' && result.outcome.status === 'error',
  );
  return failed?.kind === 'ran' ? exitCodeOf(failed.outcome) : 0;
};

/** A connection that failed, said as what could not be reached and which setting names it. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'ETIMEDOUT',
  'ERR_INVALID_URL',
  'ERR_SOCKET_BAD_PORT',
]);
const unreachable = (error: unknown, env: Env): string | undefined => {
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth += 1) {
    const code = (cause as NodeJS.ErrnoException).code;
    // fetch refuses some ports outright ("bad port"), with no code.
    if ((code !== undefined && NETWORK_CODES.has(code)) || cause.message === 'bad port')
      return `GitHub's API at ${settingsOf(env).githubApiUrl ?? 'its default address'} could not be reached (${code ?? 'refused'}: ${cause.message}). The runner sets GITHUB_API_URL; on GitHub Enterprise it is the server's API address`;
    cause = cause.cause;
  }
  return undefined;
};

/**
 * The Action from its start to its exit code. An error that escapes is a line
 * of the same log and an error annotation; the log is closed at the end.
 */
export const runActionLogged = async (env: Env, actionLog: ActionLog): Promise<number> => {
  try {
    return await runAction(env, actionLog);
  } catch (error) {
    const message = unreachable(error, env) ?? describeError(error);
    actionLog.log.print(`regreen: ${message}`);
    actionLog.log.annotate('error', `regreen failed to run: ${message}`);
    // A later step can still read what happened: the outcome output and the summary say so too.
    const settings = settingsOf(env);
    try {
      setOutputs(settings.githubOutput, { outcome: 'error' });
      if (settings.githubStepSummary)
        appendFileSync(
          settings.githubStepSummary,
          `### regreen failed to run\n\n${message.replaceAll('\n', ' ')}\n`,
        );
    } catch (written) {
      actionLog.log.print(`regreen: cannot write the step's outputs: ${describeError(written)}`);
    }
    return exitCodeOfError(isRegreenError(error) ? error.code : 'internal');
  } finally {
    actionLog.log.close();
  }
};

/** `regreen action`. */
export const registerAction = (program: Command, { env, setExit, verbosity }: CliContext): void => {
  program
    .command('action')
    .description(SUMMARIES.action)
    .action(async () => {
      setExit(await runActionLogged(env, openActionLog(env, verbosity === 'verbose')));
    });
};
