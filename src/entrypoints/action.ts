import type { Command } from 'commander';
import { SUMMARIES } from '../cli/summaries.ts';
import type { CliContext } from '../cli/context.ts';
import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { budgetFlags } from '../config/operator-bounds.ts';
import { buildJobDeps } from '../job/compose.ts';
import type { Env } from '../config/env.ts';
import { RegreenError } from '../errors.ts';
import { ACTION_PACING, createGitHubClient } from '../forge/github/client.ts';
import { ensureUserNamespaces } from '../workspace/userns.ts';
import { actionSummary, failureTargetOf, runActionFailures } from '../github/action-run.ts';
import { guardsFromEnv } from '../github/settings.ts';
import type { Logger } from '../logger.ts';
import { sandboxKindOf } from '../workspace/sandbox-kinds.ts';
import type { SandboxKind } from '../workspace/sandbox.ts';
import { actionInputOf as inputOf, settingsOf } from '../config/env.ts';

/** Appends `name<<delimiter` blocks to the file the runner reads outputs from. */
const setOutputs = (file: string | undefined, outputs: Record<string, string>): void => {
  if (!file) return;
  for (const [name, value] of Object.entries(outputs)) {
    const delimiter = `regreen_${randomBytes(8).toString('hex')}`;
    appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
  }
};

/**
 * The GitHub Action: in a `workflow_run` workflow it reads the failed run's
 * logs; as a step after a failing step (`if: failure()`) it reproduces the
 * test command. Outputs: outcome, pr-url, fingerprint; a job summary.
 * Returns the process exit code (1 only when regreen itself failed).
 */
export const runAction = async (env: Env, logger: Logger): Promise<number> => {
  const input = inputOf(env);
  const token = input('github-token');
  if (!token) throw new RegreenError('usage', 'the github-token input is empty');
  const sandbox: SandboxKind = sandboxKindOf(input('sandbox'), (message) => logger.warn(message));
  if (sandbox === 'bubblewrap') ensureUserNamespaces({ logger });
  const settings = settingsOf(env);
  const eventPath = settings.githubEventPath;
  if (!eventPath)
    throw new RegreenError('usage', 'GITHUB_EVENT_PATH is not set: run regreen as an Action');
  const event: unknown = JSON.parse(readFileSync(eventPath, 'utf8'));
  const client = createGitHubClient({
    auth: { kind: 'token', token },
    pacing: ACTION_PACING,
    ...(settings.githubApiUrl ? { baseUrl: settings.githubApiUrl } : {}),
    logger,
  });
  const apiKey = input('anthropic-api-key');
  const jobEnv: Env = { ...env, ...(apiKey ? { ANTHROPIC_API_KEY: apiKey } : {}) };
  const dataDir = path.join(settings.runnerTemp ?? settings.home ?? '/tmp', 'regreen');
  const protectedPaths = input('protected-paths')
    .split(/[\n,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const model = input('model');
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
        progress,
      }),
  });
  const summary = actionSummary(results);
  setOutputs(settings.githubOutput, summary.outputs);
  if (settings.githubStepSummary)
    appendFileSync(settings.githubStepSummary, `${summary.markdown}\n`);
  process.stderr.write(
    `[regreen] ${summary.outputs.outcome}${summary.outputs['pr-url'] ? `: ${summary.outputs['pr-url']}` : ''}\n`,
  );
  return summary.outputs.outcome === 'error' ? 1 : 0;
};

/** `regreen action`. */
export const registerAction = (program: Command, { env, logger, setExit }: CliContext): void => {
  program
    .command('action')
    .description(SUMMARIES.action)
    .action(async () => {
      setExit(await runAction(env, logger));
    });
};
