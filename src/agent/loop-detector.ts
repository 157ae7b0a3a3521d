import type { ToolLevel } from '../config/repo-config.ts';

export interface LoopLimits {
  /** The same call (name + input, with no file change between) this many times is a loop. */
  readonly repeatedCalls: number;
  /** This many turns in a row with failing tests and no file change is a loop. */
  readonly stuckTurns: number;
}

export const DEFAULT_LOOP_LIMITS: LoopLimits = { repeatedCalls: 3, stuckTurns: 4 };

/** Tools that wait on something running: calling them again is patience, not a loop. */
const WAITING_TOOLS = new Set(['vibe_wait']);

export type LoopVerdict =
  { kind: 'ok' } | { kind: 'warn'; message: string } | { kind: 'stop'; reason: string };

/**
 * Watches the calls of a loop. The first time a loop shows, the model gets
 * one corrective message; if it shows again, the job stops.
 */
export class LoopDetector {
  private readonly seen = new Map<string, number>();
  private fileVersion = 0;
  private stuck = 0;
  private changedThisTurn = false;
  private failedTestsThisTurn = false;
  private warned = false;
  private signal: string | undefined;

  constructor(private readonly limits: LoopLimits = DEFAULT_LOOP_LIMITS) {}

  observe(
    call: { name: string; input: unknown; level: ToolLevel | undefined },
    outcome: { isError: boolean; tests?: 'passed' | 'failed' | 'timed out' },
  ): void {
    if (call.level === 'write' && !outcome.isError) {
      this.fileVersion += 1;
      this.changedThisTurn = true;
    }
    if (outcome.tests === 'failed' || outcome.tests === 'timed out')
      this.failedTestsThisTurn = true;
    if (WAITING_TOOLS.has(call.name)) return;
    const key = `${this.fileVersion}\u0000${call.name}\u0000${JSON.stringify(call.input)}`;
    const count = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, count);
    if (count >= this.limits.repeatedCalls)
      this.signal = `the same ${call.name} call ${count} times with no file change in between`;
  }

  endTurn(): LoopVerdict {
    if (this.failedTestsThisTurn && !this.changedThisTurn) this.stuck += 1;
    else if (this.changedThisTurn) this.stuck = 0;
    if (this.stuck >= this.limits.stuckTurns)
      this.signal ??= `${this.stuck} turns in a row with failing tests and no file change`;
    this.changedThisTurn = false;
    this.failedTestsThisTurn = false;
    const signal = this.signal;
    if (signal === undefined) return { kind: 'ok' };
    this.signal = undefined;
    if (this.warned) return { kind: 'stop', reason: `loop: ${signal}` };
    this.warned = true;
    this.seen.clear();
    this.stuck = 0;
    return {
      kind: 'warn',
      message: `You are going in circles (${signal}). Stop repeating it. Re-read the failure, form a different hypothesis, and change the code; if you cannot make progress, end your turn with what you found.`,
    };
  }
}
