import type { JobSpec } from '../queue/jobs.ts';
import type { JobEvent } from '../queue/types.ts';
export type JobState = 'queued' | 'running' | 'completed' | 'failed';

export interface JobRecord {
  readonly id: string;
  readonly key: string;
  readonly kind: string;
  readonly repo: string;
  readonly sha: string | null;
  readonly fingerprint: string | null;
  readonly trigger: string | null;
  readonly state: JobState;
  readonly outcome: string | null;
  readonly summary: string | null;
  readonly prUrl: string | null;
  readonly costUsd: number;
  readonly turns: number;
  readonly attempts: number;
  readonly queuedAt: number | null;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
  readonly tracePath: string | null;
  readonly traceText: string | null;
  readonly detail: string | null;
  readonly error: string | null;
  /** What happened to it on the way, one line each (handed back at a shutdown, recovered at a start). */
  readonly note: string | null;
  /** How many times its run was cut (handed back at a shutdown, or found running after a restart). */
  readonly interruptions: number;
}

/** A job waiting for a person (ask_user): what it needs to resume, possibly in another process. */
export interface SuspendedJob {
  readonly jobId: string;
  readonly questionId: string;
  readonly deadline: number;
  readonly state: unknown;
  readonly createdAt: number;
}

export interface JobStore {
  readonly file: string;
  record(event: JobEvent): void;
  list(options?: { limit?: number; offset?: number }): JobRecord[];
  get(id: string): JobRecord | undefined;
  /** Jobs queued or running by the record: at a start, the ones no process may run any more. */
  unfinished(): JobRecord[];
  /** The job as it was queued (its payload), when the record keeps it. */
  specOf(id: string): JobSpec | undefined;
  /** Dollars recorded for a repository in a month (`YYYY-MM`). */
  spent(repo: string, month: string): number;
  /** Adds to a repository's month and returns the new total. */
  addSpend(repo: string, month: string, usd: number): number;
  suspend(job: SuspendedJob): void;
  /** Removes and returns a suspended job (exactly one taker resumes it). */
  takeSuspended(jobId: string): SuspendedJob | undefined;
  suspendedDue(now: number): SuspendedJob[];
  suspendedAll(): SuspendedJob[];
  suspendedByQuestion(questionId: string): SuspendedJob | undefined;
  close(): void;
}
