import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../src/entrypoints/app.ts';
import { silentLogger } from '../../src/logger.ts';
import { jobIdFor } from '../../src/queue/jobs.ts';
import { openJobStore } from '../../src/store/sqlite.ts';
import { appEnv, customJob } from '../support/app-env.ts';
import { startRedis, type RedisServer } from '../support/redis.ts';
import { makeTempDir } from '../support/tmp.ts';
import { waitFor } from '../support/wait.ts';
import { startProbeWorker } from '../support/workers.ts';

interface Entry {
  event: 'start' | 'end';
  id: string;
  pid: number;
  attempt?: number;
}

describe('jobs across worker and server stops, on a real redis-server (#59)', () => {
  const temp = makeTempDir('regreen-bull-recovery-');
  const log = path.join(temp.dir, 'probe.log');
  const dataDir = path.join(temp.dir, 'app');
  let redis: RedisServer;
  let app: Served;
  const workers: ChildProcess[] = [];

  const entries = (): Entry[] =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Entry)
      : [];
  const startWorker = async (graceSeconds: number): Promise<ChildProcess> => {
    const child = await startProbeWorker({
      redisUrl: redis.url,
      concurrency: 1,
      graceSeconds,
      env: {
        PROBE_LOG: log,
        REGREEN_LOCK_MS: '1000',
        REGREEN_DATA_DIR: path.join(temp.dir, 'worker'),
      },
    });
    workers.push(child);
    return child;
  };
  const exitOf = (child: ChildProcess): Promise<number | null> =>
    new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const startApp = () =>
    serve(appEnv(dataDir, { REDIS_URL: redis.url }), silentLogger(), { port: 0 });

  beforeAll(async () => {
    redis = await startRedis(path.join(temp.dir, 'redis'));
    app = await startApp();
  }, 60_000);
  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
    await app?.close();
    await redis?.stop();
    temp.cleanup();
  });

  it('SIGTERM past the drain: the worker hands its job back to the queue at once and exits 0; the next worker runs it, no attempt used', async () => {
    writeFileSync(log, '');
    const worker = await startWorker(1);
    const spec = customJob('drained', { sleepMs: 5000 });
    const id = jobIdFor(spec.key);
    await app.queue.enqueue(spec);
    await waitFor('the job to start', () => entries().some((e) => e.event === 'start'));
    const exited = exitOf(worker);
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(entries().filter((e) => e.event === 'end')).toEqual([]);
    // Waiting again, with no worker left to find it stalled: the worker put it back itself.
    expect(await app.queue.place(id)).toBe('queued');
    await waitFor('the store to follow', () => app.store.get(id)?.state === 'queued');
    expect(app.store.get(id)?.note).toMatch(/its worker stopped before it finished/);

    const next = await startWorker(20);
    await waitFor('the job to end', () => app.store.get(id)?.state === 'completed', 60_000);
    const runs = entries();
    expect(runs.filter((e) => e.event === 'end').map((e) => e.pid)).toEqual([next.pid]);
    expect(runs.filter((e) => e.event === 'start').map((e) => e.attempt)).toEqual([1, 1]);
    const stopped = exitOf(next);
    next.kill('SIGTERM');
    expect(await stopped).toBe(0);
  }, 120_000);

  it("a worker killed mid-job: BullMQ's stalled check puts it back, another worker runs it, and the store says so", async () => {
    writeFileSync(log, '');
    const victim = await startWorker(20);
    const spec = customJob('stalled', { sleepMs: 2000 });
    const id = jobIdFor(spec.key);
    await app.queue.enqueue(spec);
    await waitFor('the job to start', () => app.store.get(id)?.state === 'running');
    victim.kill('SIGKILL');
    const rescuer = await startWorker(20);
    await waitFor('the job to end', () => app.store.get(id)?.state === 'completed', 60_000);
    expect(app.store.get(id)?.note).toMatch(/its worker stopped before it finished/);
    expect(
      entries()
        .filter((e) => e.event === 'end')
        .map((e) => e.pid),
    ).toEqual([rescuer.pid]);
  }, 120_000);

  it('a server restarted while a worker ran its job records how it ended; a job Redis no longer has is ended', async () => {
    writeFileSync(log, '');
    const spec = customJob('while-down', { sleepMs: 1500 });
    const id = jobIdFor(spec.key);
    await app.queue.enqueue(spec);
    await waitFor('the job to start', () => app.store.get(id)?.state === 'running', 60_000);
    await app.close();
    await waitFor('the job to end', () => entries().some((e) => e.event === 'end' && e.id === id));
    // A record of a job Redis lost (flushed, another Redis): queued, never to run.
    const ghost = customJob('ghost');
    const store = openJobStore(path.join(dataDir, 'regreen.db'));
    expect(store.get(id)?.state).toBe('running');
    store.record({ type: 'queued', id: jobIdFor(ghost.key), spec: ghost, at: Date.now() });
    store.close();

    app = await startApp();
    expect(app.recovered.caughtUp).toEqual([id]);
    expect(app.recovered.ended).toEqual([jobIdFor(ghost.key)]);
    expect(app.store.get(id)).toMatchObject({ state: 'completed', outcome: 'done' });
    expect(app.store.get(jobIdFor(ghost.key))).toMatchObject({ state: 'failed', outcome: 'error' });
    expect(app.store.get(jobIdFor(ghost.key))?.error).toMatch(/no longer in Redis/);
  }, 120_000);
});
