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
  let idleWaiters: (() => void)[] = [];
  const remember = options.rememberDone ?? 1000;

  const settle = (): void => {
    if (running === 0 && waiting.length === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  };

  const pump = (): void => {
    while (running < options.concurrency) {
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
    get size() {
      return waiting.length;
    },
    get running() {
      return running;
    },
  };
};
