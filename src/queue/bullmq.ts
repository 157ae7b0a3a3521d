import { DelayedError, Queue, QueueEvents, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { describeError, RegreenError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { logJobEvent } from './job-log.ts';
import { jobIdFor, parsePayload, type JobResult, type JobSpec } from './jobs.ts';
import { RetryableError, type JobEvent, type JobQueue, type Processor } from './types.ts';

export const QUEUE_NAME = 'regreen-jobs';
const DEFAULT_PREFIX = 'regreen';
/** How long a finished job's key keeps a duplicate out. */
const KEEP_SECONDS = 7 * 86_400;

/** The URL without its password, for messages and logs. */
export const redactRedisUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable REDIS_URL)';
  }
};

/** A client that reconnects for ever (BullMQ's requirement); the first contact must succeed within `timeoutMs`. */
export const connectRedis = async (url: string, timeoutMs = 5000): Promise<Redis> => {
  const client = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true });
  client.on('error', () => undefined);
  try {
    await Promise.race([
      client.connect().then(() => client.ping()),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs),
      ),
    ]);
    return client;
  } catch (error) {
    client.disconnect();
    throw new RegreenError(
      'config',
      `cannot reach Redis at ${redactRedisUrl(url)}: ${describeError(error)}. Start redis-server, fix REDIS_URL, or unset it to run jobs in this process`,
      { cause: error },
    );
  }
};

const connectionOptions = (url: string) => ({ url, maxRetriesPerRequest: null });

interface StoredJob {
  readonly spec: JobSpec;
}

const specOf = (job: Job): JobSpec | undefined =>
  (job.data as Partial<StoredJob> | undefined)?.spec;

/**
 * The queue side (the App, the eval harness): jobs go to Redis with an id
 * derived from their key, so a duplicate enqueue is a no-op, and a finished
 * job is kept a week to keep it so.
 */
export const bullJobQueue = async (options: {
  url: string;
  prefix?: string;
  attempts?: number;
  backoffMs?: number;
  onEvent?: (event: JobEvent) => void;
  now?: () => number;
}): Promise<JobQueue> => {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const now = options.now ?? (() => Date.now());
  const claims = await connectRedis(options.url);
  const queue = new Queue(QUEUE_NAME, { connection: connectionOptions(options.url), prefix });
  queue.on('error', () => undefined);
  let events: QueueEvents | undefined;
  const emit = options.onEvent;
  /** Jobs this queue added (it reports those itself); the rest come from other producers. */
  const ownAdds = new Set<string>();
  if (emit) {
    events = new QueueEvents(QUEUE_NAME, { connection: connectionOptions(options.url), prefix });
    events.on('error', () => undefined);
    // A job a worker enqueued (the fixes a triage found) is recorded here too.
    events.on('added', ({ jobId }) => {
      if (ownAdds.delete(jobId)) return;
      void queue.getJob(jobId).then((job) => {
        const spec = job ? specOf(job) : undefined;
        if (job && spec) emit({ type: 'queued', id: jobId, spec, at: job.timestamp });
      });
    });
    events.on('active', ({ jobId }) => {
      void queue.getJob(jobId).then((job) => {
        if (job) emit({ type: 'started', id: jobId, attempt: job.attemptsMade + 1, at: now() });
      });
    });
    // Back from a worker to the queue: its worker stopped (its drain over, or dead and found stalled).
    events.on('waiting', ({ jobId, prev }) => {
      if (prev === 'active')
        emit({
          type: 'requeued',
          id: jobId,
          reason:
            'its worker stopped before it finished (shut down, or stopped answering): back in the queue',
          at: now(),
        });
    });
    events.on('completed', ({ jobId, returnvalue }) => {
      const result = (
        typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue
      ) as JobResult;
      emit({ type: 'completed', id: jobId, result, at: now() });
    });
    events.on('failed', ({ jobId, failedReason }) => {
      void queue.getJob(jobId).then(async (job) => {
        const final = job ? await job.isFailed() : true;
        emit({
          type: 'failed',
          id: jobId,
          reason: failedReason,
          final,
          ...(job ? { attempt: job.attemptsMade } : {}),
          at: now(),
        });
      });
    });
    await events.waitUntilReady();
  }
  await queue.waitUntilReady();
  return {
    kind: 'bullmq',
    enqueue: async (spec) => {
      const id = jobIdFor(spec.key);
      // An atomic claim of the key: of two enqueues at once, exactly one is told it added the job.
      const claimed = await claims.set(`${prefix}:claim:${id}`, '1', 'EX', KEEP_SECONDS, 'NX');
      if (claimed !== 'OK') return false;
      if (emit) ownAdds.add(id);
      await queue.add(spec.payload.kind, { spec } satisfies StoredJob, {
        jobId: id,
        attempts: options.attempts ?? 3,
        backoff: { type: 'exponential', delay: options.backoffMs ?? 2000 },
        removeOnComplete: { age: KEEP_SECONDS, count: 10_000 },
        removeOnFail: { age: 30 * 86_400 },
      });
      emit?.({ type: 'queued', id, spec, at: now() });
      return true;
    },
    counts: async () => {
      const c = await queue.getJobCounts(
        'waiting',
        'active',
        'delayed',
        'failed',
        'completed',
        'prioritized',
      );
      return {
        waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
        active: c.active ?? 0,
        delayed: c.delayed ?? 0,
        failed: c.failed ?? 0,
        completed: c.completed ?? 0,
      };
    },
    outcome: async (id) => {
      // The state first, then the job: a job read before it finished has no return value yet.
      const state = await queue.getJobState(id);
      if (state !== 'completed' && state !== 'failed') return { state: 'pending' };
      const job = await queue.getJob(id);
      if (!job) return { state: 'pending' };
      if (state === 'failed') return { state: 'failed', reason: job.failedReason };
      const result = job.returnvalue as JobResult | null;
      return result ? { state: 'completed', result } : { state: 'pending' };
    },
    place: async (id) => {
      const state = await queue.getJobState(id);
      if (state === 'active') return 'running';
      if (state === 'completed' || state === 'failed') return state;
      return state === 'unknown' ? 'missing' : 'queued';
    },
    idle: async () => {
      for (;;) {
        const c = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        if (Object.values(c).every((n) => n === 0)) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: async () => {
      await events?.close();
      await queue.close();
      claims.disconnect();
      return { handedBack: [] };
    },
  };
};

/** Releases a group lock only if this job still holds it. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export interface BullWorker {
  /**
   * Takes no more jobs; gives the current ones `graceMs` to finish, then
   * hands the rest back to the queue (first in line for the next worker) and
   * returns their ids. Their processors may still be running: the caller ends
   * the process.
   */
  close(graceMs: number): Promise<{ readonly handedBack: readonly string[] }>;
}

/**
 * A worker: takes jobs from Redis, at most one per group at a time across
 * every worker (a Redis lock per group, renewed while the job runs and
 * expiring with the job's own lock if the worker dies), retries regreen's own
 * failures with backoff, dead-letters a payload that fails its schema. A job
 * whose worker died is taken again once its lock expires.
 */
export const startBullWorker = async (options: {
  url: string;
  prefix?: string;
  processor: Processor;
  concurrency: number;
  /** How long a job's lock (and its group's) lives without renewal. */
  lockMs?: number;
  logger: Logger;
}): Promise<BullWorker> => {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const lockMs = options.lockMs ?? 30_000;
  const locks = await connectRedis(options.url);
  const log = options.logger;
  /** The jobs this worker runs now, with the lock token that lets it hand them back. */
  const running = new Map<string, { job: Job; token: string | undefined }>();
  const worker = new Worker(
    QUEUE_NAME,
    async (job: Job, token?: string): Promise<JobResult> => {
      const spec = specOf(job);
      const parsed = parsePayload(spec?.payload);
      if (!spec || !parsed.ok) {
        const reason = `dead-lettered: ${parsed.ok ? 'no job spec' : parsed.why}`;
        logJobEvent(log, {
          type: 'failed',
          id: job.id ?? '?',
          reason,
          final: true,
          at: Date.now(),
        });
        throw new UnrecoverableError(reason);
      }
      const id = job.id ?? jobIdFor(spec.key);
      const lockKey = `${prefix}:group-lock:${spec.group}`;
      const got = await locks.set(lockKey, id, 'PX', lockMs, 'NX');
      if (got !== 'OK' && (await locks.get(lockKey)) !== id) {
        // Another job of this group runs: come back shortly (not counted as an attempt).
        await job.moveToDelayed(Date.now() + 200 + Math.floor(Math.random() * 300), token);
        throw new DelayedError();
      }
      const renew = setInterval(
        () => {
          void locks.eval(RENEW, 1, lockKey, id, String(lockMs)).catch(() => undefined);
        },
        Math.max(100, Math.floor(lockMs / 3)),
      );
      const attempt = job.attemptsMade + 1;
      running.set(id, { job, token });
      logJobEvent(log, { type: 'started', id, attempt, at: Date.now() });
      try {
        const result = await options.processor(parsed.payload, { id, key: spec.key, attempt });
        logJobEvent(log, { type: 'completed', id, result, at: Date.now() });
        return result;
      } catch (error) {
        const retry = error instanceof RetryableError && attempt < (job.opts.attempts ?? 1);
        const reason = describeError(error);
        logJobEvent(log, { type: 'failed', id, reason, final: !retry, attempt, at: Date.now() });
        if (error instanceof RetryableError) throw error;
        throw new UnrecoverableError(reason);
      } finally {
        running.delete(id);
        clearInterval(renew);
        await locks.eval(RELEASE, 1, lockKey, id).catch(() => undefined);
      }
    },
    {
      connection: connectionOptions(options.url),
      prefix,
      concurrency: options.concurrency,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      maxStalledCount: 3,
    },
  );
  worker.on('error', (error) =>
    options.logger.warn({ err: describeError(error) }, 'queue connection trouble; reconnecting'),
  );
  await worker.waitUntilReady();
  return {
    close: async (graceMs) => {
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        worker.close().then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(resolve, graceMs, false))),
      ]);
      clearTimeout(timer);
      const handedBack: string[] = [];
      if (!finished) {
        // Back to the queue now, first in line, rather than when their locks expire.
        for (const [id, { job, token }] of running) {
          try {
            await job.moveToWait(token);
            handedBack.push(id);
            log.warn(
              { job: id, drainMs: graceMs },
              'shutdown drain over: job handed back to the queue',
            );
          } catch (error) {
            log.warn(
              { job: id, err: describeError(error) },
              'cannot hand a job back; its lock expires',
            );
          }
        }
        // Not awaited: a forced close still waits for the processors, which the caller's exit ends.
        void worker.close(true).catch(() => undefined);
      }
      locks.disconnect();
      return { handedBack };
    },
  };
};
