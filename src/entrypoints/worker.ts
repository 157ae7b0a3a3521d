import type { Command } from 'commander';
import { SUMMARIES } from '../cli/summaries.ts';
import { untilStopped, type CliContext } from '../cli/context.ts';
import { DEFAULT_DRAIN_SECONDS, drainSecondsOf, endNow, parseSeconds } from '../cli/drain.ts';
import type { Env } from '../config/env.ts';
import { RegreenError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { bullJobQueue, connectRedis, startBullWorker, type BullWorker } from '../queue/bullmq.ts';
import type { Processor } from '../queue/types.ts';
import { appProcessor, loadCustomProcessor, spendCapFromEnv } from './app-wiring.ts';
import { settingsOf } from '../config/env.ts';

export interface RunningWorker {
  /** Finishes the current jobs (or hands them back after `graceMs`) and disconnects; returns the handed-back ids. */
  stop(graceMs: number): Promise<{ readonly handedBack: readonly string[] }>;
}

/**
 * `regreen worker`: takes jobs from Redis (REDIS_URL) and runs them; any
 * number of workers on any machine share one Redis. App jobs need the App's
 * credentials (APP_ID, PRIVATE_KEY); `--processor FILE` adds a processor for
 * custom jobs (eval tasks, benchmarks).
 */
export const startWorker = async (
  env: Env,
  logger: Logger,
  options: { concurrency?: number; processor?: string; lockMs?: number } = {},
): Promise<RunningWorker> => {
  const url = settingsOf(env).redisUrl;
  if (!url)
    throw new RegreenError(
      'usage',
      'regreen worker needs REDIS_URL (the Redis the App enqueues to)',
    );
  const custom: Processor | undefined = options.processor
    ? await loadCustomProcessor(options.processor, env)
    : undefined;
  const producer = await bullJobQueue({ url });
  const redis = settingsOf(env).spendCapUsd ? await connectRedis(url) : undefined;
  const cap = spendCapFromEnv(env, redis ? { redis } : {});
  let worker: BullWorker;
  try {
    worker = await startBullWorker({
      url,
      processor: appProcessor({
        env,
        logger,
        enqueue: (spec) => producer.enqueue(spec),
        ...(cap ? { spendCap: cap } : {}),
        ...(custom ? { custom } : {}),
      }),
      concurrency: options.concurrency ?? Number(settingsOf(env).concurrency ?? 1),
      ...(options.lockMs ? { lockMs: options.lockMs } : {}),
      logger,
    });
  } catch (error) {
    await producer.close();
    redis?.disconnect();
    throw error;
  }
  return {
    stop: async (graceMs) => {
      const closed = await worker.close(graceMs);
      await producer.close();
      redis?.disconnect();
      return closed;
    },
  };
};

/** `regreen worker`. */
export const registerWorker = (program: Command, { env, logger, setExit }: CliContext): void => {
  program
    .command('worker')
    .description(SUMMARIES.worker)
    .option(
      '--concurrency <n>',
      'jobs at once in this process (default: $REGREEN_CONCURRENCY, else 1)',
    )
    .option('--processor <file>', 'a module whose processor runs `custom` jobs')
    .option(
      '--grace <seconds>',
      `on SIGTERM, how long the current jobs may finish before they are handed back to the queue (default: $REGREEN_DRAIN_SECONDS, else ${DEFAULT_DRAIN_SECONDS})`,
    )
    .action(async (opts: { concurrency?: string; processor?: string; grace?: string }) => {
      const drainSeconds =
        opts.grace !== undefined ? parseSeconds(opts.grace, '--grace') : drainSecondsOf(env);
      const worker = await startWorker(env, logger, {
        ...(opts.concurrency !== undefined ? { concurrency: Number(opts.concurrency) } : {}),
        ...(opts.processor ? { processor: opts.processor } : {}),
        ...(settingsOf(env).lockMs ? { lockMs: Number(settingsOf(env).lockMs) } : {}),
      });
      process.stderr.write(`[regreen] worker ${process.pid} taking jobs\n`);
      await untilStopped(
        `worker stopping: the current jobs have ${drainSeconds} s to finish, then go back to the queue`,
      );
      const { handedBack } = await worker.stop(drainSeconds * 1000);
      setExit(0);
      if (handedBack.length > 0) endNow(`${handedBack.length} job(s) handed back to the queue`);
    });
};
