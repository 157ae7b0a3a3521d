import { describeError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { JobEvent, JobQueue } from '../queue/types.ts';
import type { JobRecord, JobStore } from '../store/types.ts';

/** A job whose run was cut this many times (restarts, shutdowns) is ended rather than started again. */
export const MAX_CUTS = 3;

export interface Recovered {
  readonly requeued: readonly string[];
  readonly ended: readonly string[];
  /** Finished while this server was down: the store now says how. */
  readonly caughtUp: readonly string[];
}

/**
 * At a server's start: each job the store has as queued or running is looked
 * up in the queue. One no process runs any more (the in-process queue starts
 * empty; Redis may have lost it) is queued again from its recorded payload,
 * or ended with the reason when it has none or was cut too often; one that
 * moved on while the server was down (a worker finished it, BullMQ found its
 * worker dead) is recorded as it is now. Every change is said on its page.
 */
export const recoverJobs = async (options: {
  store: JobStore;
  queue: JobQueue;
  /** Where the events go: the store, the metrics and the log, as the queue's own. */
  record: (event: JobEvent) => void;
  now: () => number;
  logger: Logger;
}): Promise<Recovered> => {
  const { store, queue, record, now } = options;
  const requeued: string[] = [];
  const ended: string[] = [];
  const caughtUp: string[] = [];
  const end = (job: JobRecord, reason: string): void => {
    record({ type: 'failed', id: job.id, reason, final: true, at: now() });
    ended.push(job.id);
  };
  for (const job of store.unfinished()) {
    try {
      const place = await queue.place(job.id);
      if (place === 'completed' || place === 'failed') {
        const outcome = await queue.outcome(job.id);
        if (outcome.state === 'completed')
          record({ type: 'completed', id: job.id, result: outcome.result, at: now() });
        else if (outcome.state === 'failed')
          record({ type: 'failed', id: job.id, reason: outcome.reason, final: true, at: now() });
        if (outcome.state !== 'pending') caughtUp.push(job.id);
        continue;
      }
      if (place === 'running') continue;
      if (place === 'queued') {
        if (job.state === 'running') {
          record({
            type: 'requeued',
            id: job.id,
            reason: 'its worker stopped while the server was down: back in the queue',
            at: now(),
          });
          caughtUp.push(job.id);
        }
        continue;
      }
      // No queue has it: nothing will ever run it unless it is queued again.
      if (queue.kind === 'bullmq') {
        end(job, `interrupted: the job is no longer in Redis (it was ${job.state} when last seen)`);
        continue;
      }
      const spec = store.specOf(job.id);
      const cuts = job.interruptions + (job.state === 'running' ? 1 : 0);
      if (!spec) {
        end(
          job,
          `interrupted by a restart while ${job.state}; its record (from an older regreen) keeps no payload to run it again`,
        );
      } else if (cuts >= MAX_CUTS) {
        end(job, `interrupted ${cuts} times by restarts or shutdowns: ended rather than run again`);
      } else {
        record({
          type: 'requeued',
          id: job.id,
          reason: `the server restarted while it was ${job.state}: queued again`,
          at: now(),
        });
        await queue.enqueue(spec);
        requeued.push(job.id);
      }
    } catch (error) {
      options.logger.error(
        { job: job.id, err: describeError(error) },
        'cannot recover the job; its record stays as it was',
      );
    }
  }
  if (requeued.length + ended.length + caughtUp.length > 0)
    options.logger.warn(
      { requeued: requeued.length, ended: ended.length, caughtUp: caughtUp.length },
      'jobs left unfinished by the last run: recovered',
    );
  return { requeued, ended, caughtUp };
};
