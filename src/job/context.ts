import { RegreenError } from '../errors.ts';
import type { Disposables } from '../util/disposables.ts';
import type { StageStatus, Trace } from '../observe/trace.ts';
import type { Logger } from '../logger.ts';
import type { JobDeps } from './deps.ts';
import type { Spend } from '../agent/ledger.ts';

/** What every stage of one job shares. */
export interface JobContext {
  readonly id: string;
  /** The job's folder under the data dir: the trace, and what regreen itself writes. */
  readonly dir: string;
  /**
   * Where the trees sandboxed commands write live (the workspace, each
   * sandbox's tmp and home, the fresh trees): the job's size-bounded volume
   * where the host has one (`job-volume.ts`), else `dir`.
   */
  readonly scratch: string;
  /** `scratch` is the job's volume: it goes whole when the job ends, and nothing in it need be removed before. */
  readonly scratchOnVolume: boolean;
  readonly deps: JobDeps;
  readonly trace: Trace;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  /** Resources to dispose when the job ends, last first. */
  readonly disposables: Disposables;
  /** What the agent spent, once it has run: an error after that still reports it (the spend cap counts it). */
  readonly spent: { current?: Spend };
  /** The change a proposal committed (its diff against the base), once one is made: what the job keeps. */
  readonly proposed: { change?: string };
}

/** What a stage says of itself when it ends: its line, and when it did not simply pass, its verdict. */
export type StageEnd =
  string | { readonly outcome: string; readonly status: StageStatus; readonly verdict?: string };

/**
 * Runs one stage: trace events at start and end (with its outcome and
 * duration) and a progress line for the front door.
 */
export const runStage = async <T>(
  job: JobContext,
  stage: string,
  body: () => Promise<T>,
  describe: (value: T) => StageEnd,
): Promise<T> => {
  if (job.signal.aborted) throw new RegreenError('cancelled', `cancelled before ${stage}`);
  const started = job.deps.clock.now();
  job.trace.emit({ type: 'stage', stage, phase: 'start' });
  job.deps.progress?.({ kind: 'start', stage });
  try {
    const value = await body();
    const durationMs = job.deps.clock.now() - started;
    const end = describe(value);
    const { outcome, ...verdict } = typeof end === 'string' ? { outcome: end } : end;
    job.trace.emit({ type: 'stage', stage, phase: 'end', outcome, ...verdict, durationMs });
    job.deps.progress?.({ kind: 'stage', stage, outcome, durationMs });
    return value;
  } catch (error) {
    const durationMs = job.deps.clock.now() - started;
    const outcome = `error: ${error instanceof Error ? error.message : String(error)}`;
    job.trace.emit({ type: 'stage', stage, phase: 'end', outcome, status: 'fail', durationMs });
    // The front door prints the job's outcome, which says what went wrong: the stage's line
    // names the error's code only, so the message is not printed twice.
    const code = error instanceof RegreenError ? error.code : 'internal';
    job.deps.progress?.({ kind: 'stage', stage, outcome: `error (${code})`, durationMs });
    throw error;
  }
};
