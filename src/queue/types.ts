import type { JobPayload, JobResult, JobSpec } from './jobs.ts';

/** What a worker does with one job. Throwing a RetryableError asks for another attempt. */
export type Processor = (
  payload: JobPayload,
  job: {
    readonly id: string;
    readonly key: string;
    readonly attempt: number;
    /** What is left of the repository's monthly spend cap, when one is set. */
    readonly costCeilingUsd?: number;
  },
) => Promise<JobResult>;

/** regreen's own failure (the sandbox did not start, GitHub or the model API was down): worth retrying. */
export class RetryableError extends Error {
  override readonly name = 'RetryableError';
}

/** What happened to a job, for the store, the metrics and the page. */
export type JobEvent =
  | { readonly type: 'queued'; readonly id: string; readonly spec: JobSpec; readonly at: number }
  | { readonly type: 'started'; readonly id: string; readonly attempt: number; readonly at: number }
  | {
      readonly type: 'completed';
      readonly id: string;
      readonly result: JobResult;
      readonly at: number;
    }
  | {
      readonly type: 'failed';
      readonly id: string;
      readonly reason: string;
      /** No more attempts: the job is dead-lettered. */
      readonly final: boolean;
      /** The attempt that failed, when the queue knows it. */
      readonly attempt?: number;
      readonly at: number;
    }
  | {
      /** Back in the queue unfinished: its process stopped (a restart, a shutdown's drain over, a worker gone). */
      readonly type: 'requeued';
      readonly id: string;
      readonly reason: string;
      readonly at: number;
    };

export type JobOutcome =
  | { readonly state: 'pending' }
  | { readonly state: 'completed'; readonly result: JobResult }
  | { readonly state: 'failed'; readonly reason: string };

export interface QueueCounts {
  readonly waiting: number;
  readonly active: number;
  readonly delayed: number;
  readonly failed: number;
  readonly completed: number;
}

/** Where a job is now, as its queue knows it (`missing`: the queue has no such job, e.g. after a restart). */
export type JobPlace = 'queued' | 'running' | 'completed' | 'failed' | 'missing';

/** The port: the App and the eval harness only enqueue; workers run. */
export interface JobQueue {
  readonly kind: 'memory' | 'bullmq';
  /** False when a job with the same key is queued, running, or recently done. */
  enqueue(spec: JobSpec): Promise<boolean>;
  counts(): Promise<QueueCounts>;
  /** Where a job is: still pending (or unknown), completed with its result, or failed for good. */
  outcome(id: string): Promise<JobOutcome>;
  /** Where a job is: waiting, running, finished, or unknown to this queue. */
  place(id: string): Promise<JobPlace>;
  /** Resolves when nothing is waiting or running (memory: exact; BullMQ: polled). */
  idle(): Promise<void>;
  /**
   * Stops. In-process, no new job starts and the running ones get `graceMs`
   * (default: no bound) to finish; the ones still running then are handed
   * back (a `requeued` event each; the next start runs them again) and their
   * ids returned. With Redis the workers own the jobs: nothing is handed back.
   */
  close(graceMs?: number): Promise<{ readonly handedBack: readonly string[] }>;
}
