import type { Clock } from '../util/clock.ts';
import type { Usage } from '../model/types.ts';

export interface Budget {
  readonly maxTurns: number;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly maxCostUsd: number;
  readonly maxMs: number;
}

/** What the next call could cost at most, estimated before it is sent. */
export interface CallEstimate {
  readonly inputTokens: number;
  /** USD per token, to price the estimate pessimistically (no cache). */
  readonly inputPrice: number;
  readonly outputPrice: number;
}

export type Admission = { ok: true; maxOutputTokens: number } | { ok: false; reason: string };

export interface Spend {
  readonly turns: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly costUsd: number;
  readonly elapsedMs: number;
}

/** The output cap of one answer when the budget allows more. */
export const PER_TURN_OUTPUT_TOKENS = 8192;
/** Below this many output tokens left, an answer is not worth asking for. */
const MIN_OUTPUT_TOKENS = 256;

/**
 * What a job has spent, and the gate in front of every model call. It fails
 * closed: a call is admitted only if it cannot pass any limit, priced as if
 * nothing came from the cache and the answer used every output token allowed.
 */
export class Ledger {
  private turns = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private cacheReadTokens = 0;
  private cacheWriteTokens = 0;
  private costUsd = 0;
  private readonly started: number;
  /** Time spent waiting for a person: not the model's time. */
  private pausedMs = 0;
  private pausedAt: number | undefined;

  constructor(
    readonly budget: Budget,
    private readonly clock: Clock,
  ) {
    this.started = clock.now();
  }

  admit(estimate: CallEstimate): Admission {
    const b = this.budget;
    if (this.turns + 1 > b.maxTurns)
      return { ok: false, reason: `turn limit reached (${b.maxTurns} turns)` };
    const elapsed = this.elapsed();
    if (elapsed >= b.maxMs)
      return { ok: false, reason: `time limit reached (${Math.round(b.maxMs / 60_000)} min)` };
    const inputSoFar = this.inputTokens + this.cacheReadTokens + this.cacheWriteTokens;
    if (inputSoFar + estimate.inputTokens > b.maxInputTokens) {
      return {
        ok: false,
        reason: `input token limit would be passed (${inputSoFar} spent + ~${estimate.inputTokens} next > ${b.maxInputTokens})`,
      };
    }
    const outputLeft = b.maxOutputTokens - this.outputTokens;
    if (outputLeft < MIN_OUTPUT_TOKENS)
      return {
        ok: false,
        reason: `output token limit reached (${this.outputTokens} of ${b.maxOutputTokens})`,
      };
    let maxOutputTokens = Math.min(PER_TURN_OUTPUT_TOKENS, outputLeft);
    const costLeft = b.maxCostUsd - this.costUsd - estimate.inputTokens * estimate.inputPrice;
    if (estimate.outputPrice > 0)
      maxOutputTokens = Math.min(maxOutputTokens, Math.floor(costLeft / estimate.outputPrice));
    if (costLeft <= 0 || maxOutputTokens < MIN_OUTPUT_TOKENS) {
      return {
        ok: false,
        reason: `cost limit would be passed ($${this.costUsd.toFixed(4)} spent of $${b.maxCostUsd})`,
      };
    }
    return { ok: true, maxOutputTokens };
  }

  record(usage: Usage, costUsd: number): void {
    this.turns += 1;
    this.inputTokens += usage.inputTokens;
    this.outputTokens += usage.outputTokens;
    this.cacheReadTokens += usage.cacheReadTokens;
    this.cacheWriteTokens += usage.cacheWriteTokens;
    this.costUsd += costUsd;
  }

  /** Carries over what a suspended job had spent before it resumed. */
  restore(spend: Spend): void {
    this.turns = spend.turns;
    this.inputTokens = spend.inputTokens;
    this.outputTokens = spend.outputTokens;
    this.cacheReadTokens = spend.cacheReadTokens;
    this.cacheWriteTokens = spend.cacheWriteTokens;
    this.costUsd = spend.costUsd;
    // The model time before the suspension counts: as if this ledger had started that much earlier.
    this.pausedMs -= spend.elapsedMs;
  }

  /** Stops the wall clock while a question waits for a person (no model call is made meanwhile). */
  pause(): void {
    this.pausedAt ??= this.clock.now();
  }

  resume(): void {
    if (this.pausedAt === undefined) return;
    this.pausedMs += this.clock.now() - this.pausedAt;
    this.pausedAt = undefined;
  }

  private elapsed(): number {
    const now = this.clock.now();
    const pausing = this.pausedAt === undefined ? 0 : now - this.pausedAt;
    return now - this.started - this.pausedMs - pausing;
  }

  get turnsTaken(): number {
    return this.turns;
  }

  spend(): Spend {
    return {
      turns: this.turns,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      cacheReadTokens: this.cacheReadTokens,
      cacheWriteTokens: this.cacheWriteTokens,
      costUsd: this.costUsd,
      elapsedMs: this.elapsed(),
    };
  }
}
