import { Ledger } from '../../agent/ledger.ts';
import { runAgentLoop, type AgentResult } from '../../agent/loop.ts';
import { systemPrompt, taskMessage } from '../../agent/prompt.ts';
import { ToolRegistry } from '../../agent/tool-registry.ts';
import { coreTools } from '../../../tools/index.ts';
import type { JobContext } from '../context.ts';
import type { RecipesResult } from './recipes.ts';
import type { Reproduced } from './reproduce.ts';

type Failed = Extract<Reproduced, { failed: true }>;

export type AgentStageResult =
  | { readonly ran: false; readonly why: string }
  | {
      readonly ran: true;
      readonly result: AgentResult;
      readonly plan: string;
      readonly summary: string;
    };

/** The model loop over the job's tools, under the budget of the repo config. */
export const runAgentStage = async (
  job: JobContext,
  failed: Failed,
  recipes: RecipesResult,
): Promise<AgentStageResult> => {
  if (recipes.fixedBy) return { ran: false, why: `fixed by recipe ${recipes.fixedBy}` };
  const { prepared } = failed;
  const model = job.deps.model?.(() => prepared.workspace);
  if (!model) return { ran: false, why: 'no model configured (recipes only)' };
  const { config } = prepared;
  const budget = config.budget;
  const ledger = new Ledger(
    {
      maxTurns: budget.max_turns,
      maxTokens: budget.max_tokens,
      maxCostUsd: budget.max_cost_usd,
      maxMs: budget.max_minutes * 60_000,
    },
    job.deps.clock,
  );
  const result = await runAgentLoop({
    model,
    registry: new ToolRegistry(coreTools()),
    filter: { levels: config.tools.levels, disabled: config.tools.disabled },
    ctx: {
      workspace: prepared.workspace,
      sandbox: prepared.sandbox,
      logger: job.logger,
      testCommand: prepared.testCommand,
      commandTimeoutMs: config.timeouts.command_seconds * 1000,
    },
    system: systemPrompt({ workspace: prepared.workspace, context: prepared.context }),
    task: taskMessage({
      command: failed.command,
      output: recipes.output,
      recipes: recipes.applied,
    }),
    ledger,
    trace: job.trace,
    logger: job.logger,
    signal: job.signal,
  });
  const texts = result.messages.flatMap((message) =>
    message.role === 'assistant'
      ? message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []))
      : [],
  );
  job.trace.emit({ type: 'note', message: 'ledger', data: ledger.summary() });
  return { ran: true, result, plan: texts[0] ?? '', summary: texts.at(-1) ?? '' };
};
