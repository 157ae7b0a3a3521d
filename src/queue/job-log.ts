import type { Logger } from '../logger.ts';
import type { JobEvent } from './types.ts';

/** A reason as one bounded log field (it can hold a tool's output or a remote's message). */
const reasonField = (reason: string): string =>
  reason.length > 2000 ? `${reason.slice(0, 2000)}…` : reason;

/**
 * One log line per turn in a job's life, each with the job's id: queued,
 * started (or retried), a failed attempt at warn with its error, handed back,
 * and its end (at error when it ran out of attempts).
 */
export const logJobEvent = (logger: Logger, event: JobEvent): void => {
  const job = event.id;
  switch (event.type) {
    case 'queued':
      logger.info(
        { job, kind: event.spec.payload.kind, repo: event.spec.repo, key: event.spec.key },
        'job queued',
      );
      return;
    case 'started':
      if (event.attempt > 1) logger.info({ job, attempt: event.attempt }, 'job retried');
      else logger.info({ job, attempt: event.attempt }, 'job started');
      return;
    case 'completed':
      logger.info(
        {
          job,
          outcome: event.result.status,
          summary: reasonField(event.result.summary),
          ...(event.result.prUrl ? { pr: event.result.prUrl } : {}),
        },
        'job ended',
      );
      return;
    case 'failed': {
      const fields = {
        job,
        ...(event.attempt !== undefined ? { attempt: event.attempt } : {}),
        err: reasonField(event.reason),
      };
      if (event.final) logger.error({ ...fields, outcome: 'error' }, 'job ended');
      else logger.warn(fields, 'job attempt failed; it will be retried');
      return;
    }
    case 'requeued':
      logger.warn({ job, reason: event.reason }, 'job back in the queue');
      return;
  }
};
