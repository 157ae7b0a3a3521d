import { describeError } from '../errors.ts';
import { jobIdFor, parsePayload, type JobSpec } from './jobs.ts';
import {
  RetryableError,
  type JobEvent,
  type JobOutcome,
  type JobPlace,
  type JobQueue,
  type Processor,
} from './types.ts';

/**
 * The in-process job queue: bounded concurrency, one job at a time per
 * group (a repository: two jobs never push the same branch at once), and a
 * key per job so that a duplicate enqueue (a redelivered webhook, the same
 * failure seen through two events) is a no-op while the first is queued,
 * running, or recently done.
 */
export interface QueuedJob {
  readonly key: string;
  readonly group: string;
  readonly run: () => Promise<void>;
}

export interface MemoryQueue {
  /** False when the key is already queued, running or recently done. */
  enqueue(job: QueuedJob): boolean;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  /** Starts no more jobs (the running ones go on); resolves when none runs. */
  pause(): Promise<void>;
  readonly size: number;
  readonly running: number;
}

export const createMemoryQueue = (options: {
  concurrency: number;
  /** How many finished keys are remembered for dedupe. */
  rememberDone?: number;
  onError: (key: string, error: unknown) => void;
}): MemoryQueue => {
  const waiting: QueuedJob[] = [];
  const busyGroups = new Set<string>();
  const known = new Set<string>();
  const done: string[] = [];
  let running = 0;
  let paused = false;
  let idleWaiters: (() => void)[] = [];
  let stoppedWaiters: (() => void)[] = [];
  const remember = options.rememberDone ?? 1000;

  const settle = (): void => {
    if (running === 0) {
      const waiters = stoppedWaiters;
      stoppedWaiters = [];
      for (const resolve of waiters) resolve();
    }
    if (running === 0 && waiting.length === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  };

  const pump = (): void => {
    while (!paused && running < options.concurrency) {
      const index = waiting.findIndex((job) => !busyGroups.has(job.group));
      if (index < 0) break;
      const [job] = waiting.splice(index, 1);
      if (!job) break;
      running += 1;
      busyGroups.add(job.group);
      void job
        .run()
        .catch((error: unknown) => options.onError(job.key, error))
        .finally(() => {
          running -= 1;
          busyGroups.delete(job.group);
          done.push(job.key);
          if (done.length > remember) known.delete(done.shift() ?? '');
          pump();
          settle();
        });
    }
  };

  return {
    enqueue: (job) => {
      if (known.has(job.key)) return false;
      known.add(job.key);
      waiting.push(job);
      queueMicrotask(pump);
      return true;
    },
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        queueMicrotask(settle);
      }),
    pause: () =>
      new Promise<void>((resolve) => {
        paused = true;
        stoppedWaiters.push(resolve);
        queueMicrotask(settle);
      }),
    get size() {
      return waiting.length;
    },
    get running() {
      return running;
    },
  };
};

/**
 * The default JobQueue: jobs run in this process through `processor`, with
 * the same semantics as the BullMQ adapter (dedupe by key, one job per group,
 * retries with backoff for regreen's own failures, a schema check on every
 * payload).
 */
export const memoryJobQueue = (options: {
  concurrency: number;
  processor: Processor;
  onEvent?: (event: JobEvent) => void;
  attempts?: number;
  backoffMs?: number;
  now?: () => number;
}): JobQueue => {
  const now = options.now ?? (() => Date.now());
  const attempts = options.attempts ?? 3;
  const emit = (event: JobEvent): void => {
    if (!muted) options.onEvent?.(event);
  };
  const inner = createMemoryQueue({
    concurrency: options.concurrency,
    onError: () => undefined,
  });
  let active = 0;
  /** After a shutdown handed its jobs back, what they do is no longer reported. */
  let muted = false;
  let closing = false;
  const running = new Set<string>();
  const places = new Map<string, JobPlace>();
  let failed = 0;
  let completed = 0;
  const outcomes = new Map<string, JobOutcome>();
  const KEEP = 10_000;
  const settle = (id: string, outcome: JobOutcome): void => {
    places.delete(id);
    outcomes.set(id, outcome);
    if (outcomes.size > KEEP) outcomes.delete(outcomes.keys().next().value ?? '');
  };
  const runAttempts = async (id: string, spec: JobSpec): Promise<void> => {
    const parsed = parsePayload(spec.payload);
    if (!parsed.ok) {
      failed += 1;
      settle(id, { state: 'failed', reason: `dead-lettered: ${parsed.why}` });
      emit({ type: 'failed', id, reason: `dead-lettered: ${parsed.why}`, final: true, at: now() });
      return;
    }
    for (let attempt = 1; ; attempt += 1) {
      emit({ type: 'started', id, attempt, at: now() });
      active += 1;
      running.add(id);
      places.set(id, 'running');
      try {
        const result = await options.processor(parsed.payload, { id, key: spec.key, attempt });
        completed += 1;
        settle(id, { state: 'completed', result });
        emit({ type: 'completed', id, result, at: now() });
        return;
      } catch (error) {
        const retry = error instanceof RetryableError && attempt < attempts;
        emit({
          type: 'failed',
          id,
          reason: describeError(error),
          final: !retry,
          attempt,
          at: now(),
        });
        if (!retry) {
          failed += 1;
          settle(id, { state: 'failed', reason: describeError(error) });
          return;
        }
        await new Promise((resolve) =>
          setTimeout(resolve, (options.backoffMs ?? 2000) * 2 ** (attempt - 1)),
        );
        if (closing) {
          // The server is stopping: the next attempt is the next start's.
          emit({
            type: 'requeued',
            id,
            reason: 'the server stopped between two attempts; it runs again when the server starts',
            at: now(),
          });
          return;
        }
      } finally {
        active -= 1;
        running.delete(id);
        if (places.get(id) === 'running') places.set(id, 'queued');
      }
    }
  };
  return {
    kind: 'memory',
    enqueue: (spec) => {
      const id = jobIdFor(spec.key);
      const added = inner.enqueue({
        key: spec.key,
        group: spec.group,
        run: () => runAttempts(id, spec),
      });
      if (added) {
        places.set(id, 'queued');
        emit({ type: 'queued', id, spec, at: now() });
      }
      return Promise.resolve(added);
    },
    counts: () => Promise.resolve({ waiting: inner.size, active, delayed: 0, failed, completed }),
    outcome: (id) => Promise.resolve(outcomes.get(id) ?? { state: 'pending' }),
    place: (id) => {
      const outcome = outcomes.get(id);
      if (outcome && outcome.state !== 'pending') return Promise.resolve(outcome.state);
      return Promise.resolve(places.get(id) ?? 'missing');
    },
    idle: () => inner.idle(),
    close: async (graceMs) => {
      // Jobs not started stay queued (the store has them: the next start runs them).
      closing = true;
      const stopped = inner.pause();
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        stopped.then(() => true),
        ...(graceMs === undefined
          ? []
          : [new Promise<boolean>((resolve) => (timer = setTimeout(resolve, graceMs, false)))]),
      ]);
      clearTimeout(timer);
      if (finished) return { handedBack: [] };
      const handedBack = [...running];
      const seconds = Math.round((graceMs ?? 0) / 1000);
      for (const id of handedBack)
        emit({
          type: 'requeued',
          id,
          reason: `interrupted: the server stopped before it finished (its ${seconds} s drain was over); it runs again when the server starts`,
          at: now(),
        });
      muted = true;
      return { handedBack };
    },
  };
};
