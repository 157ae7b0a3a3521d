import type { Redis } from 'ioredis';
import { describeError } from '../errors.ts';
import type { JobPayload } from '../queue/jobs.ts';
import { RetryableError, type Processor } from '../queue/types.ts';
import type { JobStore } from './types.ts';

/** A per-repository, per-month dollar counter shared by every worker that uses it. */
export interface SpendCounter {
  spent(repo: string, month: string): Promise<number>;
  add(repo: string, month: string, usd: number): Promise<number>;
}

/** One machine: the store's table. */
export const storeSpend = (store: JobStore): SpendCounter => ({
  spent: (repo, month) => Promise.resolve(store.spent(repo, month)),
  add: (repo, month, usd) => Promise.resolve(store.addSpend(repo, month, usd)),
});

/** Many machines: a Redis key per repository and month (INCRBYFLOAT is atomic). */
export const redisSpend = (redis: Redis, prefix = 'regreen'): SpendCounter => {
  const key = (repo: string, month: string) => `${prefix}:spend:${month}:${repo}`;
  return {
    spent: async (repo, month) => Number((await redis.get(key(repo, month))) ?? 0),
    add: async (repo, month, usd) => {
      const total = Number(await redis.incrbyfloat(key(repo, month), usd));
      await redis.expire(key(repo, month), 62 * 86_400);
      return total;
    },
  };
};

export const monthOf = (at: number): string => new Date(at).toISOString().slice(0, 7);

export type CapVerdict =
  | { readonly ok: true; readonly remainingUsd: number }
  | { readonly ok: false; readonly why: string };

/**
 * The monthly cap per repository. It fails closed: a counter that cannot be
 * read stops the job (to be retried), it never lets one run unmetered. A job
 * is given at most what is left, so the cap holds within one job's rounding.
 */
export const spendCap = (options: {
  counter: SpendCounter;
  capUsd: number | undefined;
  now: () => number;
}) => ({
  check: async (repo: string): Promise<CapVerdict> => {
    if (options.capUsd === undefined) return { ok: true, remainingUsd: Number.POSITIVE_INFINITY };
    let spent: number;
    try {
      spent = await options.counter.spent(repo, monthOf(options.now()));
    } catch (error) {
      throw new RetryableError(`the spend counter cannot be read: ${describeError(error)}`);
    }
    const remainingUsd = options.capUsd - spent;
    return remainingUsd > 0
      ? { ok: true, remainingUsd }
      : {
          ok: false,
          why: `${repo} reached its monthly spend cap ($${spent.toFixed(2)} of $${options.capUsd.toFixed(2)})`,
        };
  },
  record: async (repo: string, usd: number): Promise<number> =>
    usd > 0 ? options.counter.add(repo, monthOf(options.now()), usd) : 0,
});

export type SpendCap = ReturnType<typeof spendCap>;

/** The repository a payload spends against: fix jobs and custom jobs that name one (triage spends nothing). */
export const spendingRepo = (payload: JobPayload): string | undefined =>
  payload.kind === 'fix' || payload.kind === 'resume'
    ? `${payload.target.owner}/${payload.target.repo}`
    : payload.kind === 'custom'
      ? payload.repo
      : undefined;

/**
 * Puts the cap around any processor: a job of a repository at its cap is
 * skipped (said in its result), one below it runs with what is left as its
 * ceiling, and what it spent is added once it ends — in Redis when workers
 * share one, so every worker on every machine sees the same total.
 */
export const cappedProcessor =
  (processor: Processor, cap: SpendCap): Processor =>
  async (payload, job) => {
    const repo = spendingRepo(payload);
    if (!repo) return processor(payload, job);
    const verdict = await cap.check(repo);
    if (!verdict.ok) return { status: 'skipped', summary: verdict.why };
    const result = await processor(payload, {
      ...job,
      ...(Number.isFinite(verdict.remainingUsd) ? { costCeilingUsd: verdict.remainingUsd } : {}),
    });
    if (result.costUsd) await cap.record(repo, result.costUsd);
    return result;
  };
