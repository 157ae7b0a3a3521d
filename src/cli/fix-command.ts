import type { QuestionChannel } from '../questions/channel.ts';
import path from 'node:path';
import type { Budget } from '../config/operator-bounds.ts';
import { RegreenError } from '../errors.ts';
import { createForge } from '../forge/index.ts';
import type { FailureReport } from '../intake/failure-report.ts';
import type { JobDeps, Progress } from '../job/deps.ts';
import type { Forge } from '../forge/types.ts';
import type { Outcome } from '../job/outcome.ts';
import { runJob } from '../job/run-job.ts';
import type { Logger } from '../logger.ts';
import {
  createModel,
  operatorPrices,
  parseModelSpec,
  repositoryModel,
  type ModelEnvironment,
} from '../model/index.ts';
import { loadScript } from '../model/script.ts';
import { systemClock } from '../util/clock.ts';
import { resolveRepoSource } from '../workspace/clone.ts';
import { sandboxFactory } from '../workspace/sandbox-index.ts';
import type { SandboxKind } from '../workspace/sandbox.ts';
import type { SetupCache } from '../workspace/setup-cache.ts';
import { defaultDataDir, homeOf, type Env } from '../config/env.ts';
import { registryHostsOf } from '../workspace/registries.ts';
import { settingsOf } from '../config/env.ts';

export interface FixOptions {
  readonly repo: string;
  readonly ref?: string;
  readonly command?: string;
  readonly job?: string;
  readonly model?: string;
  readonly sandbox: SandboxKind;
  readonly dataDir?: string;
  readonly maxTurns?: string;
  readonly maxCost?: string;
  readonly maxMinutes?: string;
  readonly maxInputTokens?: string;
  readonly maxOutputTokens?: string;
}

const positive = (flag: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new RegreenError('usage', `${flag} must be a positive number, not "${value}"`);
  return number;
};

/** Budget limits from the command line; they override the repository config's. */
export const budgetFlags = (options: FixOptions): Partial<Budget> => {
  const entries: [keyof Budget, number | undefined][] = [
    ['maxTurns', positive('--max-turns', options.maxTurns)],
    ['maxCostUsd', positive('--max-cost', options.maxCost)],
    [
      'maxMs',
      options.maxMinutes === undefined
        ? undefined
        : (positive('--max-minutes', options.maxMinutes) ?? 0) * 60_000,
    ],
    ['maxInputTokens', positive('--max-input-tokens', options.maxInputTokens)],
    ['maxOutputTokens', positive('--max-output-tokens', options.maxOutputTokens)],
  ];
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
};

export const modelEnvironment = (env: Env): ModelEnvironment => ({
  anthropicApiKey: settingsOf(env).anthropicApiKey,
  anthropicBaseURL: settingsOf(env).anthropicBaseUrl,
  openaiApiKey: settingsOf(env).openaiApiKey,
  openaiBaseURL: settingsOf(env).openaiBaseUrl,
});

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

/** The operator's model for a worker tier, `{label}` replaced by the worker's label. */
const operatorTier = (
  env: Env,
  tier: 'fast' | 'good' | undefined,
  label: string | undefined,
): ReturnType<typeof parseModelSpec> | undefined => {
  const value =
    tier === 'fast'
      ? settingsOf(env).workerFast
      : tier === 'good'
        ? settingsOf(env).workerGood
        : undefined;
  return value ? parseModelSpec(value.replaceAll('{label}', label ?? '')) : undefined;
};

/** The dependencies of a job, the same for every front door but the forge. */
export const buildJobDeps = (options: {
  env: Env;
  logger: Logger;
  forge: Forge;
  model?: string;
  budget: Partial<Budget>;
  protectedPaths?: readonly string[];
  disabledTools?: readonly string[];
  recipes?: boolean;
  commandTimeoutSeconds?: number;
  setupCache?: SetupCache;
  sandbox: SandboxKind;
  dataDir: string;
  progress: Progress;
  signal?: AbortSignal;
  questions?: JobDeps['questions'];
}): JobDeps => {
  const { env, logger } = options;
  const modelEnv = modelEnvironment(env);
  return {
    forge: options.forge,
    model: (choice) =>
      createModel(
        // The operator's model decides for the job and its workers (a tier of its own:
        // REGREEN_WORKER_FAST / _GOOD); the repository's only where the operator set none.
        operatorTier(env, choice.tier, choice.label) ??
          (options.model !== undefined
            ? parseModelSpec(options.model)
            : repositoryModel(
                choice.spec?.replaceAll('{label}', choice.label ?? ''),
                choice.configModel,
                modelEnv,
              )),
        {
          env: modelEnv,
          workspace: choice.workspace,
          prices: operatorPrices(env),
          repositoryPrices: choice.prices,
          logger,
        },
      ),
    budget: options.budget,
    ...(options.questions ? { questions: options.questions } : {}),
    ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
    ...(options.disabledTools ? { disabledTools: options.disabledTools } : {}),
    ...(options.recipes === false ? { recipes: false } : {}),
    ...(options.setupCache ? { setupCache: options.setupCache } : {}),
    ...(options.commandTimeoutSeconds
      ? { commandTimeoutSeconds: options.commandTimeoutSeconds }
      : {}),
    sandbox: sandboxFactory(options.sandbox, logger),
    logger,
    clock: systemClock,
    dataDir: options.dataDir,
    home: homeOf(env),
    env,
    registryHosts: registryHostsOf(env),
    progress: options.progress,
    ...(options.signal ? { signal: options.signal } : {}),
  };
};
