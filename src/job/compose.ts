/**
 * The composition root: the dependencies of a job, built the same way for
 * every front door (CLI, Action, App worker, eval harness); only the forge,
 * the sandbox kind and the per-job options differ.
 */
import type { Budget } from '../config/operator-bounds.ts';
import { homeOf, settingsOf, type Env } from '../config/env.ts';
import { RegreenError } from '../errors.ts';
import type { Forge } from '../forge/types.ts';
import type { Logger } from '../logger.ts';
import {
  createModel,
  operatorPrices,
  parseModelSpec,
  repositoryModel,
  type ModelEnvironment,
} from '../model/index.ts';
import { systemClock } from '../util/clock.ts';
import { registryHostsOf } from '../workspace/setup/registries.ts';
import { lazily } from '../util/lazy.ts';
import { sandboxFactory } from '../workspace/sandbox/registry.ts';
import type { SandboxKind } from '../workspace/sandbox/sandbox.ts';
import type { SetupCache } from '../workspace/setup/cache.ts';
import type { JobDeps, Progress } from './deps.ts';

export const modelEnvironment = (env: Env): ModelEnvironment => ({
  anthropicApiKey: settingsOf(env).anthropicApiKey,
  anthropicBaseURL: settingsOf(env).anthropicBaseUrl,
  openaiApiKey: settingsOf(env).openaiApiKey,
  openaiBaseURL: settingsOf(env).openaiBaseUrl,
});

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
    model: (choice) => {
      const deps = {
        env: modelEnv,
        workspace: choice.workspace,
        prices: operatorPrices(env),
        repositoryPrices: choice.prices,
        logger,
      };
      // The operator's model decides for the job and its workers (a tier of its own:
      // REGREEN_WORKER_FAST / _GOOD); the repository's only where the operator set none.
      const operator =
        operatorTier(env, choice.tier, choice.label) ??
        (options.model !== undefined ? parseModelSpec(options.model) : undefined);
      if (operator) return createModel(operator, deps);
      const named = choice.spec ?? choice.configModel;
      try {
        return createModel(
          repositoryModel(
            choice.spec?.replaceAll('{label}', choice.label ?? ''),
            choice.configModel,
            modelEnv,
          ),
          deps,
        );
      } catch (error) {
        if (named === undefined || !(error instanceof RegreenError) || error.code === 'config')
          throw error;
        throw new RegreenError(
          'config',
          `.github/regreen.yml chooses the model ${named}: ${error.message}`,
          { cause: error },
        );
      }
    },
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
    registryHosts: lazily(() => registryHostsOf(env)),
    progress: options.progress,
    ...(options.signal ? { signal: options.signal } : {}),
  };
};
