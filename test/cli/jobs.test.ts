import { existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobTracePath, listJobs, pruneJobs } from '../../src/cli/jobs-command.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const DAY = 86_400_000;

/** A job folder as run-job leaves it: a trace, a workspace, a fresh tree. */
const job = (dataDir: string, id: string, files: Record<string, string>): string => {
  const dir = path.join(dataDir, 'jobs', id);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
};

const trace = (stage: string): string =>
  [
    { ts: '2026-11-01T10:00:00.000Z', type: 'stage', stage, phase: 'start' },
    {
      ts: '2026-11-01T10:00:00.005Z',
      type: 'stage',
      stage,
      phase: 'end',
      outcome: 'done',
      durationMs: 5,
    },
  ]
    .map((event) => JSON.stringify(event))
    .join('\n') + '\n';

describe('regreen jobs and trace show by job', () => {
  it('prunes what old jobs left, keeps their traces, follows no link, and leaves young jobs alone', () => {
    const temp = makeTempDir();
    try {
      const dataDir = path.join(temp.dir, 'data');
      const outside = path.join(temp.dir, 'outside');
      mkdirSync(outside);
      writeFileSync(path.join(outside, 'keep.txt'), 'not regreen’s');
      const old = job(dataDir, '20261101T100000-aaaaaa', {
        'trace.jsonl': trace('intake'),
        'workspace/big.bin': 'x'.repeat(4096),
        'fresh/a.txt': 'a',
      });
      symlinkSync(outside, path.join(old, 'workspace', 'link'));
      const young = job(dataDir, '20261201T100000-bbbbbb', {
        'trace.jsonl': trace('prepare'),
        'workspace/a.txt': 'a',
      });
      mkdirSync(path.join(dataDir, 'jobs', 'not-a-job'));
      const now = Date.UTC(2026, 11, 2);
      // The old job's trace last moved long ago; a third old job with no outcome wrote its trace
      // a minute ago: it may still be running, and its files stay.
      const stale = new Date(Date.UTC(2026, 10, 1, 11));
      utimesSync(path.join(old, 'trace.jsonl'), stale, stale);
      const live = job(dataDir, '20261102T100000-cccccc', {
        'trace.jsonl': trace('agent'),
        'workspace/a.txt': 'a',
      });
      const lately = new Date(now - 60_000);
      utimesSync(path.join(live, 'trace.jsonl'), lately, lately);
      expect(listJobs(dataDir).map((j) => j.id)).toEqual([
        '20261101T100000-aaaaaa',
        '20261102T100000-cccccc',
        '20261201T100000-bbbbbb',
      ]);
      const dry = pruneJobs(dataDir, { olderThanMs: 7 * DAY, now, dryRun: true });
      expect(dry.pruned).toEqual(['20261101T100000-aaaaaa']);
      expect(dry.running).toEqual(['20261102T100000-cccccc']);
      expect(existsSync(path.join(old, 'workspace'))).toBe(true);
      const done = pruneJobs(dataDir, { olderThanMs: 7 * DAY, now, dryRun: false });
      expect(done.bytes).toBeGreaterThanOrEqual(4096);
      expect(existsSync(path.join(old, 'workspace'))).toBe(false);
      expect(existsSync(path.join(old, 'fresh'))).toBe(false);
      expect(existsSync(path.join(old, 'trace.jsonl'))).toBe(true);
      expect(existsSync(path.join(outside, 'keep.txt'))).toBe(true);
      expect(existsSync(path.join(young, 'workspace', 'a.txt'))).toBe(true);
      expect(existsSync(path.join(live, 'workspace', 'a.txt'))).toBe(true);
      // Pruned once, nothing is left to prune.
      expect(pruneJobs(dataDir, { olderThanMs: 7 * DAY, now, dryRun: false }).pruned).toEqual([]);
      // trace show: the latest by default, a job by a unique start of its id.
      expect(jobTracePath(dataDir)).toBe(path.join(young, 'trace.jsonl'));
      expect(jobTracePath(dataDir, '20261101')).toBe(path.join(old, 'trace.jsonl'));
      expect(() => jobTracePath(dataDir, '2026')).toThrow(/names 3 jobs/);
      expect(() => jobTracePath(dataDir, 'nope')).toThrow(/no job nope/);
    } finally {
      temp.cleanup();
    }
  });

  it('a job that ended as it should keeps only records, not files; a killed one keeps its volume', () => {
    const temp = makeTempDir();
    try {
      const dataDir = path.join(temp.dir, 'data');
      // What a job leaves when its volume went with it: the trace and small records beside it.
      job(dataDir, '20261101T100000-aaaaaa', {
        'trace.jsonl': trace('propose'),
        'change.diff': 'diff --git a/a b/a\n',
        'proposed-fresh.diff': 'diff --git a/a b/a\n',
        'volume.owner': '{"pid":1,"start":"1"}',
      });
      // A regreen killed mid-job: its image and mount point stay until `jobs prune`.
      job(dataDir, '20261101T110000-bbbbbb', {
        'trace.jsonl': trace('agent'),
        'volume.img': '',
        'volume.owner': '{"pid":1,"start":"1"}',
      });
      expect(listJobs(dataDir).map((j) => [j.id, j.hasFiles])).toEqual([
        ['20261101T100000-aaaaaa', false],
        ['20261101T110000-bbbbbb', true],
      ]);
    } finally {
      temp.cleanup();
    }
  });

  it('from the command line: trace show with no argument reads the latest job; jobs prune says what it freed', async () => {
    const temp = makeTempDir();
    try {
      const dataDir = path.join(temp.dir, 'data');
      const ended = job(dataDir, '20261101T100000-aaaaaa', {
        'trace.jsonl': trace('intake'),
        'workspace/a.txt': 'a',
      });
      // Its trace last moved a day ago: no longer running.
      const dayAgo = new Date(Date.now() - 86_400_000);
      utimesSync(path.join(ended, 'trace.jsonl'), dayAgo, dayAgo);
      const env = { REGREEN_DATA_DIR: dataDir };
      // Given --data-dir, the footer's commands carry it, so they work as written (a new user's R12).
      const given = await runCli(['jobs', 'list', '--data-dir', dataDir], {});
      expect(given.stdout).toContain(
        `(regreen jobs prune --data-dir ${dataDir} removes them); regreen trace show ID --data-dir ${dataDir} reads a job`,
      );
      const shown = await runCli(['trace', 'show'], env);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('intake');
      const byId = await runCli(['trace', 'show', '20261101T100000'], env);
      expect(byId.stdout).toBe(shown.stdout);
      const missing = await runCli(['trace', 'show', 'nope'], env);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/^regreen: no job nope under /m);
      const pruned = await runCli(['jobs', 'prune', '--older-than', '0'], env);
      expect(pruned.code, pruned.stderr).toBe(0);
      expect(pruned.stdout).toMatch(
        /^freed \d+\.\d MiB from 1 job \(traces kept\): 20261101T100000-aaaaaa/,
      );
      const listed = await runCli(['jobs', 'list'], env);
      // One line a job: pruned, it keeps no files (its trace and change only).
      const row = listed.stdout
        .split('\n')
        .find((line) => line.startsWith('20261101T100000-aaaaaa'));
      expect(row, listed.stdout).toBeDefined();
      expect(row).not.toMatch(/\bfiles\b/);
      expect(listed.stdout).toMatch(/^JOB +OUTCOME +COST +BRANCH +TOOK +KEPT +REPOSITORY$/m);
      // A job's folder, or the end of its id, names it too.
      expect((await runCli(['trace', 'show', 'aaaaaa'], env)).stdout).toContain('trace: ');
    } finally {
      temp.cleanup();
    }
  });

  it('--json: jobs list and trace show as data; an error as the JSON error object (#37)', async () => {
    const temp = makeTempDir();
    try {
      const dataDir = path.join(temp.dir, 'data');
      const env = { REGREEN_DATA_DIR: dataDir };
      const empty = await runCli(['jobs', 'list', '--json'], env);
      expect(empty.code, empty.stderr).toBe(0);
      expect(JSON.parse(empty.stdout)).toEqual({ dataDir, jobs: [], totals: [] });
      const dir = job(dataDir, '20261101T100000-aaaaaa', {
        'trace.jsonl':
          trace('intake') +
          JSON.stringify({
            ts: '2026-11-01T10:00:01.000Z',
            type: 'note',
            message: 'outcome',
            data: { status: 'diagnosis', reason: 'nothing found' },
          }) +
          '\n',
      });
      const listed = await runCli(['jobs', 'list', '--json'], env);
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual({
        dataDir,
        jobs: [
          {
            id: '20261101T100000-aaaaaa',
            startedAt: '2026-11-01T10:00:00.000Z',
            outcome: 'diagnosis',
            durationMs: 1000,
            keepsFiles: false,
            // What the intake stage ended with: the repository it ran on.
            repository: 'done',
            tracePath: path.join(dir, 'trace.jsonl'),
          },
        ],
        totals: [{ month: '2026-11', repository: 'done', jobs: 1, costUsd: 0 }],
      });
      const shown = await runCli(['trace', 'show', '--json'], env);
      expect(shown.code, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout)).toMatchObject({
        trace: path.join(dir, 'trace.jsonl'),
        outcome: { status: 'diagnosis', reason: 'nothing found' },
        stages: [{ stage: 'intake', durationMs: 5, outcome: 'done' }],
        tools: [],
        malformed: 0,
      });
      const missing = await runCli(['trace', 'show', 'nope', '--json'], env);
      expect(missing.code).toBe(2);
      expect(JSON.parse(missing.stdout)).toEqual({
        error: {
          code: 'usage',
          message: `no job nope under ${path.join(dataDir, 'jobs')}. regreen jobs list shows them`,
          exit: 2,
        },
      });
    } finally {
      temp.cleanup();
    }
  });
});
