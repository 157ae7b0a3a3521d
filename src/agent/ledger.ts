import type { Budget } from '../config/operator-bounds.ts';
import type { Clock } from '../util/clock.ts';
import type { Usage } from '../model/types.ts';

/** What the next call could cost at most, estimated before it is sent. */
export interface CallEstimate {
  readonly inputTokens: number;
  /** USD per token, to price the estimate pessimistically (no cache). */
  readonly inputPrice: number;
  readonly outputPrice: number;
}

/** What an admitted call holds of the budget until it is recorded or released. */
export interface Reservation {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
}

export type Admission =
  { ok: true; maxOutputTokens: number; reservation: Reservation } | { ok: false; reason: string };

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
 * its input were all written to the cache and the answer used every output
 * token allowed. An admitted call reserves that much until it is recorded or
 * released, so the main agent and its workers, calling at once, are each
 * admitted against what the others may still spend — never the same
 * remainder twice.
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
  /** Calls admitted and not yet settled, and what they hold. */
  private inflight = 0;
  private reserved = { turns: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };

  constructor(
    readonly budget: Budget,
    private readonly clock: Clock,
  ) {
    this.started = clock.now();
  }

  admit(estimate: CallEstimate): Admission {
    const b = this.budget;
    if (this.turns + this.reserved.turns + 1 > b.maxTurns)
      return { ok: false, reason: `turn limit reached (${b.maxTurns} turns)` };
    const elapsed = this.elapsed();
    if (elapsed >= b.maxMs)
      return { ok: false, reason: `time limit reached (${Math.round(b.maxMs / 60_000)} min)` };
    const inputSoFar =
      this.inputTokens + this.cacheReadTokens + this.cacheWriteTokens + this.reserved.inputTokens;
    if (inputSoFar + estimate.inputTokens > b.maxInputTokens) {
      return {
        ok: false,
        reason: `input token limit would be passed (${inputSoFar} spent + ~${estimate.inputTokens} next > ${b.maxInputTokens})`,
      };
    }
    const outputLeft = b.maxOutputTokens - this.outputTokens - this.reserved.outputTokens;
    if (outputLeft < MIN_OUTPUT_TOKENS)
      return {
        ok: false,
        reason: `output token limit reached (${this.outputTokens} of ${b.maxOutputTokens}${this.reserved.outputTokens > 0 ? `, ${this.reserved.outputTokens} held by calls in flight` : ''})`,
      };
    let maxOutputTokens = Math.min(PER_TURN_OUTPUT_TOKENS, outputLeft);
    const costLeft =
      b.maxCostUsd -
      this.costUsd -
      this.reserved.costUsd -
      estimate.inputTokens * estimate.inputPrice;
    if (estimate.outputPrice > 0)
      maxOutputTokens = Math.min(maxOutputTokens, Math.floor(costLeft / estimate.outputPrice));
    if (costLeft <= 0 || maxOutputTokens < MIN_OUTPUT_TOKENS) {
      return {
        ok: false,
        reason: `cost limit would be passed ($${this.costUsd.toFixed(4)} spent${this.reserved.costUsd > 0 ? `, $${this.reserved.costUsd.toFixed(4)} held by calls in flight` : ''} of $${b.maxCostUsd})`,
      };
    }
    const reservation: Reservation = {
      inputTokens: estimate.inputTokens,
      outputTokens: maxOutputTokens,
      costUsd: estimate.inputTokens * estimate.inputPrice + maxOutputTokens * estimate.outputPrice,
    };
    this.hold(reservation, 1);
    // A call in flight is model time, even while a question waits for a person.
    if (this.pausedAt !== undefined && this.inflight === 0) {
      const now = this.clock.now();
      this.pausedMs += now - this.pausedAt;
      this.pausedAt = now;
    }
    this.inflight += 1;
    return { ok: true, maxOutputTokens, reservation };
  }

  private hold(reservation: Reservation, sign: 1 | -1): void {
    this.reserved = {
      turns: this.reserved.turns + sign,
      inputTokens: this.reserved.inputTokens + sign * reservation.inputTokens,
      outputTokens: this.reserved.outputTokens + sign * reservation.outputTokens,
      costUsd: this.reserved.costUsd + sign * reservation.costUsd,
    };
  }

  /** An admitted call that was not made or failed: what it held is free again. */
  release(reservation: Reservation): void {
    this.hold(reservation, -1);
    this.settle();
  }

  private settle(): void {
    this.inflight = Math.max(0, this.inflight - 1);
    if (this.pausedAt !== undefined && this.inflight === 0) this.pausedAt = this.clock.now();
  }

  /** What a call used; with its reservation, that reservation is released. */
  record(usage: Usage, costUsd: number, reservation?: Reservation): void {
    if (reservation) {
      this.hold(reservation, -1);
      this.settle();
    }
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

  /**
   * Stops the wall clock while a question waits for a person — but only while
   * no model call is in flight: workers that go on calling the model meanwhile
   * spend the job's time.
   */
  pause(): void {
    this.pausedAt ??= this.clock.now();
  }

  resume(): void {
    if (this.pausedAt === undefined) return;
    if (this.inflight === 0) this.pausedMs += this.clock.now() - this.pausedAt;
    this.pausedAt = undefined;
  }

  private elapsed(): number {
    const now = this.clock.now();
    const pausing = this.pausedAt === undefined || this.inflight > 0 ? 0 : now - this.pausedAt;
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
