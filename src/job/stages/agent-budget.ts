import type { Budget } from '../../config/operator-bounds.ts';
import type { RepoConfig } from '../../config/repo-config.ts';
import { RegreenError } from '../../errors.ts';
import type { Model } from '../../model/types.ts';
import { pricesFromConfig } from '../../model/prices.ts';
import type { JobDeps } from '../deps.ts';

/** Why a model with no price is refused, and how the operator prices it. */
export const unpricedError = (id: string): RegreenError =>
  new RegreenError(
    'usage',
    `no price is known for ${id}, so its dollar budget cannot be kept: price it as the operator (REGREEN_PRICES='{"${id.replace(/^[a-z]+:/, '')}":{"input":0,"output":0}}' for a free local model)`,
  );

/** A model with no known price would make the dollar limit a fiction: refused unless the operator prices it. */
export const refuseUnpriced = (model: Model): void => {
  if (model.unpriced) throw unpricedError(model.id);
};

export const describeBudget = (budget: Budget): string =>
  `budget ${budget.maxTurns} turns, ${budget.maxInputTokens} input / ${budget.maxOutputTokens} output tokens, $${budget.maxCostUsd}, ${Math.round(budget.maxMs / 60_000)} min`;

/** The agent's budget: the config's (already within the operator's ceilings), capped by what the spend cap leaves. */
export const jobBudget = (config: RepoConfig, costCeilingUsd: number | undefined): Budget => {
  const budget: Budget = {
    maxTurns: config.budget.max_turns,
    maxInputTokens: config.budget.max_input_tokens,
    maxOutputTokens: config.budget.max_output_tokens,
    maxCostUsd: config.budget.max_cost_usd,
    maxMs: config.budget.max_minutes * 60_000,
  };
  return costCeilingUsd !== undefined && costCeilingUsd < budget.maxCostUsd
    ? { ...budget, maxCostUsd: Math.max(0, costCeilingUsd) }
    : budget;
};

/**
 * The job's model, made from the operator's choice or the repository config's
 * `model`: one that cannot be used (no key, unknown, unpriced) is an error as
 * soon as the config is read, before set-up and the reproduce run.
 */
export const jobModel = (
  job: { readonly deps: Pick<JobDeps, 'model'> },
  config: RepoConfig,
  workspace: string,
): Model | undefined => {
  const model = job.deps.model({
    workspace: () => workspace,
    configModel: config.model,
    prices: pricesFromConfig(config.prices),
  });
  if (model) refuseUnpriced(model);
  return model;
};
