import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { JobSpec } from '../../src/queue/jobs.ts';
import { memoryJobQueue } from '../../src/queue/memory.ts';
import { RetryableError, type JobEvent } from '../../src/queue/types.ts';
import { cappedProcessor, spendCap, storeSpend } from '../../src/store/spend.ts';
import { openJobStore } from '../../src/store/sqlite.ts';
import { makeTempDir } from '../support/tmp.ts';

const fix = (key: string, repo = 'acme/range'): JobSpec => ({
  key,
  group: repo,
  repo,
  payload: {
    kind: 'fix',
    installationId: 1,
    target: {
      owner: repo.split('/')[0] ?? '',
      repo: repo.split('/')[1] ?? '',
      branch: 'main',
      headSha: 'abc123',
      cloneUrl: 'https://example.invalid/acme/range.git',
    },
    report: { repo: 'https://example.invalid/acme/range.git', trigger: 'app', fingerprint: 'f00d' },
    force: false,
  },
});

describe('the SQLite job store', () => {
  it('migrates a new file, records a job through its life, and keeps it across reopening', () => {
    const temp = makeTempDir();
    const file = path.join(temp.dir, 'data', 'regreen.db');
    const store = openJobStore(file);
    store.record({ type: 'queued', id: 'j1', spec: fix('k1'), at: 1000 });
    store.record({ type: 'started', id: 'j1', attempt: 1, at: 2000 });
    store.record({ type: 'failed', id: 'j1', reason: 'sandbox down', final: false, at: 2500 });
    expect(store.get('j1')).toMatchObject({ state: 'running', error: 'sandbox down' });
    store.record({ type: 'started', id: 'j1', attempt: 2, at: 3000 });
    store.record({
      type: 'completed',
      id: 'j1',
      at: 9000,
      result: {
        status: 'proposed',
        summary: 'fix: off-by-one',
        prUrl: 'https://example.invalid/pull/1',
        costUsd: 0.25,
        turns: 4,
        traceText: 'turn 1 …',
      },
    });
    store.close();
    const again = openJobStore(file);
    expect(again.get('j1')).toMatchObject({
      key: 'k1',
      kind: 'fix',
      repo: 'acme/range',
      sha: 'abc123',
      fingerprint: 'f00d',
      state: 'completed',
      outcome: 'proposed',
      prUrl: 'https://example.invalid/pull/1',
      costUsd: 0.25,
      turns: 4,
      attempts: 2,
      queuedAt: 1000,
      startedAt: 3000,
      finishedAt: 9000,
      error: null,
    });
    expect(again.list().map((j) => j.id)).toEqual(['j1']);
    // Events from another process may arrive out of order: a start before its queueing.
    again.record({ type: 'started', id: 'j2', attempt: 1, at: 500 });
    again.record({ type: 'queued', id: 'j2', spec: fix('k2'), at: 400 });
    expect(again.get('j2')).toMatchObject({ state: 'running', repo: 'acme/range', queuedAt: 400 });
    again.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(3);
    raw.close();
    temp.cleanup();
  });

  it('keeps spend per repository and month, and suspended jobs for exactly one taker', () => {
    const temp = makeTempDir();
    const store = openJobStore(path.join(temp.dir, 'regreen.db'));
    expect(store.addSpend('acme/a', '2026-11', 0.5)).toBe(0.5);
    expect(store.addSpend('acme/a', '2026-11', 0.25)).toBe(0.75);
    expect(store.spent('acme/a', '2026-12')).toBe(0);
    store.suspend({
      jobId: 'j1',
      questionId: 'q1',
      deadline: 5000,
      state: { turn: 3 },
      createdAt: 1,
    });
    expect(store.suspendedByQuestion('q1')?.state).toEqual({ turn: 3 });
    expect(store.suspendedDue(4999)).toEqual([]);
    expect(store.suspendedDue(5000).map((s) => s.jobId)).toEqual(['j1']);
    expect(store.takeSuspended('j1')?.questionId).toBe('q1');
    expect(store.takeSuspended('j1')).toBeUndefined();
    store.close();
    temp.cleanup();
  });

  it('refuses a corrupt file with its name, and never recreates it', () => {
    const temp = makeTempDir();
    const file = path.join(temp.dir, 'regreen.db');
    const garbage = 'this is not a database\n'.repeat(400);
    writeFileSync(file, garbage);
    expect(() => openJobStore(file)).toThrow(
      new RegExp(
        `the job store ${file.replaceAll('/', '\\/')} is not a usable SQLite database.*never recreates`,
      ),
    );
    expect(readFileSync(file, 'utf8')).toBe(garbage);
    temp.cleanup();
  });

  it('migrates a store written by an older regreen, keeping its jobs', () => {
    const temp = makeTempDir();
    const file = path.join(temp.dir, 'regreen.db');
    const old = new Database(file);
    old.exec(
      `CREATE TABLE jobs (id TEXT PRIMARY KEY, key TEXT NOT NULL, kind TEXT NOT NULL, repo TEXT NOT NULL, sha TEXT, fingerprint TEXT, trigger TEXT, state TEXT NOT NULL, outcome TEXT, summary TEXT, pr_url TEXT, cost_usd REAL NOT NULL DEFAULT 0, turns INTEGER NOT NULL DEFAULT 0, attempts INTEGER NOT NULL DEFAULT 0, queued_at INTEGER, started_at INTEGER, finished_at INTEGER, trace_path TEXT, trace_text TEXT, error TEXT);
       CREATE TABLE spend (repo TEXT NOT NULL, month TEXT NOT NULL, usd REAL NOT NULL DEFAULT 0, PRIMARY KEY (repo, month));
       CREATE TABLE suspended (job_id TEXT PRIMARY KEY, question_id TEXT NOT NULL, deadline INTEGER NOT NULL, state TEXT NOT NULL, created_at INTEGER NOT NULL);
       INSERT INTO jobs (id, key, kind, repo, state, queued_at) VALUES ('old', 'k', 'fix', 'acme/a', 'completed', 1);`,
    );
    old.pragma('user_version = 1');
    old.close();
    const store = openJobStore(file);
    expect(store.get('old')).toMatchObject({ repo: 'acme/a', detail: null });
    store.record({
      type: 'completed',
      id: 'old',
      at: 2,
      result: { status: 'proposed', summary: 's', detail: '## Checks' },
    });
    expect(store.get('old')?.detail).toBe('## Checks');
    store.close();
    temp.cleanup();
  });

  it('refuses a store written by a newer regreen', () => {
    const temp = makeTempDir();
    const file = path.join(temp.dir, 'regreen.db');
    const db = new Database(file);
    db.pragma('user_version = 99');
    db.close();
    expect(() => openJobStore(file)).toThrow(/schema version 99 is newer/);
    temp.cleanup();
  });
});

describe('the in-process queue', () => {
  it('dedupes by key, runs one job per group at a time, retries regreen errors, dead-letters bad payloads', async () => {
    const events: JobEvent[] = [];
    let running = 0;
    let most = 0;
    let flaky = 0;
    const queue = memoryJobQueue({
      concurrency: 4,
      backoffMs: 10,
      onEvent: (e) => events.push(e),
      processor: async (payload, job) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
        if (job.key === 'flaky' && (flaky += 1) < 3)
          throw new RetryableError('the sandbox did not start');
        if (job.key === 'broken') throw new Error('a bug');
        return { status: 'done', summary: payload.kind };
      },
    });
    expect(await queue.enqueue(fix('a'))).toBe(true);
    expect(await queue.enqueue(fix('a'))).toBe(false);
    expect(await queue.enqueue(fix('b'))).toBe(true);
    expect(await queue.enqueue(fix('flaky'))).toBe(true);
    expect(await queue.enqueue(fix('broken'))).toBe(true);
    const bad = {
      ...fix('bad'),
      payload: { kind: 'fix', installationId: 'x' },
    } as unknown as JobSpec;
    expect(await queue.enqueue(bad)).toBe(true);
    await queue.idle();
    expect(most).toBe(1); // all five share the group acme/range
    const finals = events.filter((e) => e.type === 'completed' || (e.type === 'failed' && e.final));
    expect(finals).toHaveLength(5);
    expect(
      events.filter(
        (e) =>
          e.type === 'started' &&
          e.id === events.find((q) => q.type === 'queued' && q.spec.key === 'flaky')?.id,
      ),
    ).toHaveLength(3);
    expect(
      events.find((e) => e.type === 'failed' && e.final && /dead-lettered/.test(e.reason)),
    ).toBeDefined();
    const dead = events.find((e) => e.type === 'failed' && /dead-lettered/.test(e.reason));
    expect(dead?.type === 'failed' ? dead.reason : '').toMatch(
      /payload fails its schema: installationId/,
    );
    expect(events.find((e) => e.type === 'failed' && e.reason === 'a bug')).toMatchObject({
      final: true,
    });
    expect(await queue.counts()).toMatchObject({ completed: 3, failed: 2 });
  });

  it('puts the spend cap around a processor: the last job gets what is left, the rest are skipped', async () => {
    const temp = makeTempDir();
    const store = openJobStore(path.join(temp.dir, 'regreen.db'));
    const cap = spendCap({
      counter: storeSpend(store),
      capUsd: 1,
      now: () => Date.parse('2026-11-30'),
    });
    const ceilings: (number | undefined)[] = [];
    const processor = cappedProcessor((_payload, job) => {
      ceilings.push(job.costCeilingUsd);
      return Promise.resolve({
        status: 'done',
        summary: '',
        costUsd: Math.min(0.4, job.costCeilingUsd ?? 0.4),
      });
    }, cap);
    const results = [];
    for (let i = 0; i < 4; i += 1)
      results.push(
        await processor(fix(`k${i}`).payload, { id: `j${i}`, key: `k${i}`, attempt: 1 }),
      );
    expect(ceilings.map((c) => c?.toFixed(2))).toEqual(['1.00', '0.60', '0.20']);
    expect(results.at(-1)?.status).toBe('skipped');
    expect(results.at(-1)?.summary).toMatch(/monthly spend cap/);
    expect(store.spent('acme/range', '2026-11')).toBeCloseTo(1, 6);
    store.close();
    temp.cleanup();
  });
});
