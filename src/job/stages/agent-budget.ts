import type { Budget } from '../../config/operator-bounds.ts';
import type { RepoConfig } from '../../config/repo-config.ts';
import { RegreenError } from '../../errors.ts';
import type { Ledger } from '../../agent/ledger.ts';
import type { Model } from '../../model/types.ts';
import type { Trace } from '../../observe/trace.ts';
import type { JobContext } from '../context.ts';

/** A model with no known price would make the dollar limit a fiction: refused unless the operator prices it. */
export const refuseUnpriced = (model: Model): void => {
  if (!model.unpriced) return;
  throw new RegreenError(
    'usage',
    `no price is known for ${model.id}, so its dollar budget cannot be kept: price it as the operator (REGREEN_PRICES='{"${model.id.replace(/^[a-z]+:/, '')}":{"input":0,"output":0}}' for a free local model)`,
  );
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

/** An input as one short line: the path or command it names, else its JSON, cut. */
const shortInput = (input: unknown): string => {
  const record = (input ?? {}) as Record<string, unknown>;
  const named = ['path', 'file', 'command', 'filter', 'pattern', 'op', 'brief'].find(
    (key) => typeof record[key] === 'string',
  );
  const text = named ? String(record[named]) : (JSON.stringify(input) ?? '');
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
};

/**
 * The job's trace, also heard by the front door: each model turn and each
 * tool call with a short input, and what has been spent of the budget.
 */
export const liveTrace = (job: JobContext, ledger: Ledger, budget: Budget): Trace => {
  const progress = job.deps.progress;
  if (!progress) return job.trace;
  let turn = 0;
  return {
    path: job.trace.path,
    emit: (event) => {
      job.trace.emit(event);
      if (event.worker !== undefined) return;
      if (event.type === 'model') turn = event.turn;
      if (event.type !== 'model' && event.type !== 'tool') return;
      progress({
        kind: 'turn',
        turn,
        ...(event.type === 'tool'
          ? {
              tool: event.name,
              input: `${shortInput(event.input)}${event.name === 'run_tests' ? ` → ${event.output.split('\n')[0]?.split(' ')[0] ?? ''}` : ''}`,
            }
          : {}),
        spentUsd: ledger.spend().costUsd,
        budgetUsd: budget.maxCostUsd,
      });
    },
  };
};
