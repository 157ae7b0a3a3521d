import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../src/entrypoints/app.ts';
import { jobIdFor } from '../../src/queue/jobs.ts';
import { createLogger } from '../../src/logger.ts';
import { RetryableError, type Processor } from '../../src/queue/types.ts';
import { openJobStore } from '../../src/store/sqlite.ts';
import { appEnv, customJob } from '../support/app-env.ts';
import { makeTempDir } from '../support/tmp.ts';
import { waitFor } from '../support/wait.ts';

/** A logger whose lines (JSON) are kept. */
const capturedLogger = () => {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    destination: {
      write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>),
    },
  });
  return { logger, lines };
};

const quick: Processor = (payload) =>
  Promise.resolve({ status: 'done', summary: `ran ${payload.kind}` });

const page = async (app: Served, id: string): Promise<string> =>
  (
    await fetch(`${app.url}/jobs/${id}`, {
      headers: { authorization: 'Bearer dashboard-secret-for-tests' },
    })
  ).text();

describe('in-process jobs across a restart and a bounded shutdown (#59)', () => {
  const temp = makeTempDir('regreen-recovery-');
  const open: Served[] = [];
  const start = async (dir: string, custom: Processor, logger = capturedLogger().logger) => {
    const app = await serve(appEnv(dir), logger, { port: 0, custom });
    open.push(app);
    return app;
  };
  afterAll(async () => {
    for (const app of open) await app.close(0).catch(() => undefined);
    temp.cleanup();
  });

  it('SIGTERM drains for a bounded time, hands the running job back, and the next start runs it and the queued one', async () => {
    const dir = path.join(temp.dir, 'drain');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const starts: string[] = [];
    const first = await start(dir, async (payload, job) => {
      starts.push(job.id);
      await held;
      return { status: 'done', summary: `ran ${payload.kind}` };
    });
    const slow = customJob('slow', {}, 'acme/one');
    const behind = customJob('behind', {}, 'acme/one');
    await first.queue.enqueue(slow);
    await first.queue.enqueue(behind);
    const [slowId, behindId] = [jobIdFor(slow.key), jobIdFor(behind.key)];
    await waitFor('the slow job to start', () => first.store.get(slowId)?.state === 'running');

    const { handedBack } = await first.close(100);
    expect(handedBack).toEqual([slowId]);
    // Its end, after the shutdown, is no longer recorded: the record says what the next start does.
    release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const store = openJobStore(path.join(dir, 'regreen.db'));
    const left = store.get(slowId);
    store.close();
    expect(left).toMatchObject({ state: 'queued', interruptions: 1, finishedAt: null });
    expect(left?.note).toMatch(
      /interrupted: the server stopped before it finished \(its 0 s drain/,
    );

    const second = await start(dir, quick);
    expect([...second.recovered.requeued].sort()).toEqual([slowId, behindId].sort());
    await second.queue.idle();
    expect(second.store.get(slowId)).toMatchObject({ state: 'completed', outcome: 'done' });
    expect(second.store.get(behindId)).toMatchObject({ state: 'completed', outcome: 'done' });
    expect(second.store.get(slowId)?.note?.split('\n')).toEqual([
      expect.stringMatching(/drain was over/),
      expect.stringMatching(/the server restarted while it was queued: queued again$/),
    ]);
    expect(await page(second, slowId)).toMatch(/on the way.*drain was over.*server restarted/s);
    await second.close();
    expect(starts).toEqual([slowId]);
  }, 60_000);

  it('a start finds jobs a killed server left running: queued again, or ended with the reason on their page', async () => {
    const dir = path.join(temp.dir, 'killed');
    // What a SIGKILLed server leaves: records that say queued or running, and no process running them.
    const store = openJobStore(path.join(dir, 'regreen.db'));
    const cut = customJob('cut');
    const old = customJob('old');
    const tired = customJob('tired');
    for (const [spec, at] of [
      [cut, 1000],
      [old, 2000],
      [tired, 3000],
    ] as const) {
      store.record({ type: 'queued', id: jobIdFor(spec.key), spec, at });
      store.record({ type: 'started', id: jobIdFor(spec.key), attempt: 1, at: at + 1 });
    }
    // Twice handed back already: a third cut ends it.
    for (let i = 0; i < 2; i += 1) {
      store.record({ type: 'requeued', id: jobIdFor(tired.key), reason: 'cut', at: 4000 });
      store.record({ type: 'started', id: jobIdFor(tired.key), attempt: 1, at: 4001 });
    }
    store.close();
    // A record from before the store kept payloads.
    const db = new Database(path.join(dir, 'regreen.db'));
    db.prepare('UPDATE jobs SET spec = NULL WHERE id = ?').run(jobIdFor(old.key));
    db.close();

    const { logger, lines } = capturedLogger();
    const app = await start(dir, quick, logger);
    await app.queue.idle();
    expect(app.recovered.requeued).toEqual([jobIdFor(cut.key)]);
    expect([...app.recovered.ended].sort()).toEqual(
      [jobIdFor(old.key), jobIdFor(tired.key)].sort(),
    );
    const cutRecord = app.store.get(jobIdFor(cut.key));
    expect(cutRecord).toMatchObject({ state: 'completed', interruptions: 1 });
    expect(cutRecord?.note).toMatch(/the server restarted while it was running: queued again/);
    const ended = app.store.get(jobIdFor(old.key));
    expect(ended).toMatchObject({ state: 'failed', outcome: 'error' });
    expect(ended?.finishedAt).not.toBeNull();
    expect(ended?.error).toMatch(
      /interrupted by a restart while running; its record .* no payload/,
    );
    expect(app.store.get(jobIdFor(tired.key))?.error).toMatch(/interrupted 3 times/);
    expect(app.store.unfinished()).toEqual([]);
    const html = await page(app, jobIdFor(old.key));
    expect(html).toMatch(/— error<\/h1>/);
    expect(html).toContain('no payload to run it again');
    expect(lines.some((l) => l.msg === 'jobs left unfinished by the last run: recovered')).toBe(
      true,
    );
  }, 60_000);

  it('logs each start, retry and end with the job id, a failed attempt at warn, and ends a job out of attempts in error with its reason', async () => {
    const dir = path.join(temp.dir, 'logs');
    const { logger, lines } = capturedLogger();
    const app = await start(
      dir,
      () => Promise.reject(new RetryableError('getaddrinfo ENOTFOUND api.github.invalid')),
      logger,
    );
    const spec = customJob('unreachable');
    const id = jobIdFor(spec.key);
    await app.queue.enqueue(spec);
    await app.queue.idle();
    const mine = lines.filter((l) => l.job === id);
    expect(mine.map((l) => [l.level, l.msg, l.attempt])).toEqual([
      [30, 'job queued', undefined],
      [30, 'job started', 1],
      [40, 'job attempt failed; it will be retried', 1],
      [30, 'job retried', 2],
      [40, 'job attempt failed; it will be retried', 2],
      [30, 'job retried', 3],
      [50, 'job ended', 3],
    ]);
    expect(
      mine.filter((l) => Number(l.level) >= 40).every((l) => /ENOTFOUND/.test(String(l.err))),
    ).toBe(true);
    const record = app.store.get(id);
    expect(record).toMatchObject({ state: 'failed', outcome: 'error', attempts: 3 });
    expect(record?.error).toMatch(/ENOTFOUND/);
    const html = await page(app, id);
    expect(html).toMatch(/— error<\/h1>/);
    expect(html).toMatch(/ended in error after 3 attempt\(s\)/);
    expect(html).toContain('getaddrinfo ENOTFOUND api.github.invalid');
  }, 60_000);
});
