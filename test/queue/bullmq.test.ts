import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEvalFixture } from '../../fixtures/eval-tasks.ts';
import { openQueue } from '../../src/entrypoints/app-wiring.ts';
import type { EvalReport } from '../../src/eval/types.ts';
import { silentLogger } from '../../src/logger.ts';
import { bullJobQueue, QUEUE_NAME } from '../../src/queue/bullmq.ts';
import type { JobSpec } from '../../src/queue/jobs.ts';
import type { JobEvent, JobQueue } from '../../src/queue/types.ts';
import { monthOf } from '../../src/store/spend.ts';
import { runCli } from '../support/cli.ts';
import { freePort, startRedis, type RedisServer } from '../support/redis.ts';
import { makeTempDir } from '../support/tmp.ts';
import { waitFor } from '../support/wait.ts';
import { startProbeWorker } from '../support/workers.ts';

interface Entry {
  event: 'start' | 'end';
  id: string;
  group: string;
  pid: number;
  at: number;
  costUsd?: number;
}

const probe = (
  key: string,
  group: string,
  data: Record<string, unknown>,
  repo?: string,
): JobSpec => ({
  key,
  group,
  repo: repo ?? group,
  payload: { kind: 'custom', name: 'probe', group, ...(repo ? { repo } : {}), data },
});

describe('BullMQ queue and workers on a real redis-server', () => {
  const temp = makeTempDir('regreen-queue-');
  const log = path.join(temp.dir, 'probe.log');
  let redis: RedisServer;
  let queue: JobQueue;
  const workers: ChildProcess[] = [];

  const entries = (): Entry[] =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Entry)
      : [];

  const startWorkerProcess = async (): Promise<ChildProcess> => {
    const child = await startProbeWorker({
      redisUrl: redis.url,
      concurrency: 2,
      graceSeconds: 20,
      env: {
        PROBE_LOG: log,
        REGREEN_LOCK_MS: '2000',
        REGREEN_SPEND_CAP_USD: '1',
        REGREEN_DATA_DIR: path.join(temp.dir, 'data'),
      },
    });
    workers.push(child);
    return child;
  };

  beforeAll(async () => {
    redis = await startRedis(path.join(temp.dir, 'redis'));
    queue = await bullJobQueue({ url: redis.url, backoffMs: 200 });
    await Promise.all([startWorkerProcess(), startWorkerProcess(), startWorkerProcess()]);
  }, 120_000);

  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
    await queue?.close();
    await redis?.stop();
    temp.cleanup();
  });

  it('50 failures of 10 repositories, each enqueued twice, over 3 workers: one job per fingerprint, one at a time per repository', async () => {
    writeFileSync(log, '');
    const specs = Array.from({ length: 50 }, (_, i) =>
      probe(`acme/r${i % 10}#fp${i}@sha${i}`, `acme/r${i % 10}`, { sleepMs: 40 }),
    );
    const added = await Promise.all([...specs, ...specs].map((spec) => queue.enqueue(spec)));
    expect(added.filter(Boolean)).toHaveLength(50);
    await queue.idle();
    const log1 = entries();
    const ends = log1.filter((e) => e.event === 'end');
    expect(ends).toHaveLength(50);
    expect(new Set(ends.map((e) => e.id)).size).toBe(50);
    expect(log1.filter((e) => e.event === 'start')).toHaveLength(50);
    // The work was spread over the processes.
    expect(new Set(ends.map((e) => e.pid)).size).toBeGreaterThanOrEqual(2);
    // Never two jobs of one repository at once, whichever worker ran them.
    for (let r = 0; r < 10; r += 1) {
      const group = `acme/r${r}`;
      const spans = log1
        .filter((e) => e.group === group && e.event === 'start')
        .map((start) => ({
          start: start.at,
          end: log1.find((e) => e.event === 'end' && e.id === start.id)?.at ?? Infinity,
        }))
        .sort((a, b) => a.start - b.start);
      for (let i = 1; i < spans.length; i += 1)
        expect(spans[i]?.start).toBeGreaterThanOrEqual(spans[i - 1]?.end ?? 0);
    }
    // A duplicate of a finished job is still a no-op.
    expect(await queue.enqueue(specs[0] as JobSpec)).toBe(false);
  }, 120_000);

  it('a worker killed with SIGKILL mid-job: the job is taken again once its lock expires and completes once', async () => {
    writeFileSync(log, '');
    expect(await queue.enqueue(probe('acme/slow#kill', 'acme/slow', { sleepMs: 3000 }))).toBe(true);
    await waitFor('the job to start', () => entries().some((e) => e.event === 'start'));
    const victim = entries()[0]?.pid;
    const worker = workers.find((w) => w.pid === victim);
    expect(worker).toBeDefined();
    worker?.kill('SIGKILL');
    await startWorkerProcess();
    await queue.idle();
    const log2 = entries();
    expect(log2.filter((e) => e.event === 'end')).toHaveLength(1);
    expect(log2.filter((e) => e.event === 'start')).toHaveLength(2);
    expect(log2.find((e) => e.event === 'end')?.pid).not.toBe(victim);
  }, 120_000);

  it('the monthly spend cap is one counter in Redis for every worker', async () => {
    writeFileSync(log, '');
    const specs = Array.from({ length: 10 }, (_, i) =>
      probe(`acme/paid#fp${i}`, 'acme/paid', { sleepMs: 20, costUsd: 0.3 }, 'acme/paid'),
    );
    for (const spec of specs) await queue.enqueue(spec);
    await queue.idle();
    const ends = entries().filter((e) => e.event === 'end');
    // $0.30 + $0.30 + $0.30 + the $0.10 left; the other six are skipped without running.
    expect(ends.map((e) => e.costUsd)).toEqual([0.3, 0.3, 0.3, expect.closeTo(0.1, 6)]);
    expect(Number(redis.cli('get', `regreen:spend:${monthOf(Date.now())}:acme/paid`))).toBeCloseTo(
      1,
      6,
    );
  }, 120_000);

  it('Redis restarted mid-run: the workers reconnect and every job still completes', async () => {
    writeFileSync(log, '');
    const specs = Array.from({ length: 20 }, (_, i) =>
      probe(`acme/r${i % 5}#restart${i}`, `acme/r${i % 5}`, { sleepMs: 150 }),
    );
    for (const spec of specs) await queue.enqueue(spec);
    await waitFor('some jobs to end', () => entries().filter((e) => e.event === 'end').length >= 3);
    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await redis.start();
    await queue.idle();
    const ids = new Set(
      entries()
        .filter((e) => e.event === 'end')
        .map((e) => e.id),
    );
    expect(ids.size).toBe(20);
    expect((await queue.counts()).failed).toBe(0);
  }, 120_000);

  it('the App records jobs other producers enqueue (a worker queueing the fixes a triage found)', async () => {
    const seen: JobEvent[] = [];
    const observer = await bullJobQueue({ url: redis.url, onEvent: (e) => seen.push(e) });
    const producer = await bullJobQueue({ url: redis.url });
    try {
      const spec = probe('acme/other#fp@sha', 'acme/other', { sleepMs: 10 });
      expect(await producer.enqueue(spec)).toBe(true);
      await producer.idle();
      await waitFor('the events', () => seen.some((e) => e.type === 'completed'));
      const queued = seen.find((e) => e.type === 'queued');
      expect(queued?.type === 'queued' ? queued.spec.key : '').toBe('acme/other#fp@sha');
      expect(seen.filter((e) => e.type === 'queued')).toHaveLength(1);
    } finally {
      await producer.close();
      await observer.close();
    }
  }, 60_000);

  it('dead-letters a payload that fails its schema, with the reason, without retrying', async () => {
    const raw = new Queue(QUEUE_NAME, {
      connection: { url: redis.url, maxRetriesPerRequest: null },
      prefix: 'regreen',
    });
    const job = await raw.add(
      'fix',
      {
        spec: {
          key: 'bad',
          group: 'acme/bad',
          repo: 'acme/bad',
          payload: { kind: 'fix', installationId: 'x' },
        },
      },
      { jobId: 'bad-payload', attempts: 3 },
    );
    for (let i = 0; i < 200 && !(await job.isFailed()); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const failed = await raw.getJob('bad-payload');
    expect(failed?.failedReason).toMatch(
      /^dead-lettered: payload fails its schema: installationId/,
    );
    expect(failed?.attemptsMade).toBe(1);
    await raw.close();
  }, 60_000);

  it('eval run --queue redis spreads the tasks over the workers and gets their results back', async () => {
    const fixture = buildEvalFixture(path.join(temp.dir, 'eval'));
    const before = (await queue.counts()).completed;
    const out = path.join(temp.dir, 'eval-out');
    const { code, stdout, stderr } = await runCli(
      [
        'eval',
        'run',
        '--tasks',
        fixture.tasksFile,
        '--policy',
        'oracle',
        '--out',
        out,
        '--queue',
        'redis',
        '--concurrency',
        '3',
        '--json',
      ],
      { REDIS_URL: redis.url },
    );
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as EvalReport;
    expect(report.summary).toMatchObject({ total: 3, resolved: 3, errors: 0 });
    // Each task was a job the workers ran.
    expect((await queue.counts()).completed - before).toBe(3);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toMatch(/Resolved <b>3<\/b> of 3/);
  }, 300_000);

  it('on SIGTERM a worker finishes its job, then exits', async () => {
    writeFileSync(log, '');
    // A worker of its own, the others gone, so that it is the one that takes the job.
    const alive = (w: ChildProcess) => w.exitCode === null && w.signalCode === null && !w.killed;
    for (const worker of workers.filter(alive)) worker.kill('SIGKILL');
    const last = await startWorkerProcess();
    expect(last).toBeDefined();
    await queue.enqueue(probe('acme/term#1', 'acme/term', { sleepMs: 1500 }));
    await waitFor('the job to start', () => entries().some((e) => e.event === 'start'));
    const exited = new Promise<number | null>((resolve) => last?.once('exit', resolve));
    last?.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(entries().filter((e) => e.event === 'end' && e.pid === last?.pid)).toHaveLength(1);
  }, 60_000);

  it('Redis down at start: a clear error naming it; the in-process queue only when asked', async () => {
    const port = await freePort();
    const env = { REDIS_URL: `redis://:hunter2@127.0.0.1:${port}` };
    const options = {
      logger: silentLogger(),
      processor: () => Promise.resolve({ status: 'done', summary: '' }),
      onEvent: () => undefined,
    };
    const refused = openQueue({ env, ...options });
    await expect(refused).rejects.toThrow(
      new RegExp(`cannot reach Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}`),
    );
    await expect(refused).rejects.not.toThrow(/hunter2/);
    const fallback = await openQueue({
      env: { ...env, REGREEN_QUEUE_FALLBACK: 'memory' },
      ...options,
    });
    expect(fallback.kind).toBe('memory');
    await fallback.close();
  });
});
