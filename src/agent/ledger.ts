import type { Clock } from '../util/clock.ts';
import type { Usage } from '../model/types.ts';

export interface Budget {
  readonly maxTurns: number;
  readonly maxTokens: number;
  readonly maxCostUsd: number;
  readonly maxMs: number;
}

export type BudgetVerdict = { ok: true } | { ok: false; reason: string };

/**
 * What a job has spent: turns, tokens, cost and wall time. It fails closed —
 * `check` refuses the next model call as soon as any limit is reached.
 */
export class Ledger {
  turns = 0;
  tokens = 0;
  costUsd = 0;
  private readonly started: number;

  constructor(
    private readonly budget: Budget,
    private readonly clock: Clock,
  ) {
    this.started = clock.now();
  }

  record(usage: Usage, costUsd: number): void {
    this.turns += 1;
    this.tokens +=
      usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
    this.costUsd += costUsd;
  }

  get elapsedMs(): number {
    return this.clock.now() - this.started;
  }

  check(): BudgetVerdict {
    if (this.turns >= this.budget.maxTurns)
      return { ok: false, reason: `turn limit reached (${this.budget.maxTurns})` };
    if (this.tokens >= this.budget.maxTokens)
      return { ok: false, reason: `token limit reached (${this.budget.maxTokens})` };
    if (this.costUsd >= this.budget.maxCostUsd)
      return { ok: false, reason: `cost limit reached ($${this.budget.maxCostUsd})` };
    if (this.elapsedMs >= this.budget.maxMs)
      return {
        ok: false,
        reason: `time limit reached (${Math.round(this.budget.maxMs / 60000)} min)`,
      };
    return { ok: true };
  }

  summary(): { turns: number; tokens: number; costUsd: number; elapsedMs: number } {
    return {
      turns: this.turns,
      tokens: this.tokens,
      costUsd: this.costUsd,
      elapsedMs: this.elapsedMs,
    };
  }
}
