import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runJson } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

/** A job's trace as run-job writes it: the intake names the repository, the outcome note ends it. */
const jobTrace = (at: string, repo: string, outcome: Record<string, unknown>): string =>
  [
    { ts: at, type: 'stage', stage: 'intake', phase: 'start' },
    { ts: at, type: 'stage', stage: 'intake', phase: 'end', outcome: repo, durationMs: 1 },
    {
      ts: at,
      type: 'model',
      turn: 1,
      text: 'I read the test.',
      stopReason: 'tool_use',
      costUsd: 0.01,
    },
    { ts: at, type: 'note', message: 'outcome', data: outcome },
  ]
    .map((event) => JSON.stringify(event))
    .join('\n') + '\n';

const spend = (costUsd: number) => ({
  turns: 2,
  inputTokens: 10,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 5,
  costUsd,
  elapsedMs: 1000,
});

describe('regreen jobs list: cost, and a total per repository and month', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);
  const dataDir = path.join(temp.dir, 'data');
  const add = (id: string, text: string): void => {
    mkdirSync(path.join(dataDir, 'jobs', id), { recursive: true });
    writeFileSync(path.join(dataDir, 'jobs', id, 'trace.jsonl'), text);
  };
  add(
    '20261101T100000-aaaaaa',
    jobTrace('2026-11-01T10:00:00.000Z', '/src/calc', {
      status: 'proposed',
      branch: 'regreen/aaa',
      title: 'fix: add adds',
      prText: 'The fix.\n\n<script>alert(1)</script>',
      spend: spend(0.25),
    }),
  );
  add(
    '20261115T100000-bbbbbb',
    jobTrace('2026-11-15T10:00:00.000Z', '/src/calc', {
      status: 'diagnosis',
      reason: 'checks failed',
      spend: spend(0.5),
    }),
  );
  add(
    '20261201T100000-cccccc',
    jobTrace('2026-12-01T10:00:00.000Z', '/src/calc', { status: 'proposed', spend: spend(1) }),
  );
  add(
    '20261202T100000-dddddd',
    jobTrace('2026-12-02T10:00:00.000Z', '/src/web', { status: 'not-reproduced' }),
  );

  it('each job its cost; the totals per repository and month, and all of them', async () => {
    const { code, stdout } = await runCli(['jobs', 'list', '--data-dir', dataDir]);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/^JOB\s+OUTCOME\s+COST\s+BRANCH/m);
    expect(stdout).toMatch(/^20261101T100000-aaaaaa\s+proposed\s+\$0\.2500\s+regreen\/aaa/m);
    expect(stdout).toContain('cost per repository and month:');
    expect(stdout).toMatch(/^2026-11\s+2\s+\$0\.7500\s+\/src\/calc$/m);
    expect(stdout).toMatch(/^2026-12\s+1\s+\$1\.0000\s+\/src\/calc$/m);
    expect(stdout).toMatch(/^2026-12\s+1\s+\$0\.0000\s+\/src\/web$/m);
    expect(stdout).toMatch(/^all\s+4\s+\$1\.7500$/m);
    const { json } = await runJson(['jobs', 'list', '--data-dir', dataDir]);
    expect((json.jobs as { costUsd?: number }[]).map((job) => job.costUsd)).toEqual([
      0.25,
      0.5,
      1,
      undefined,
    ]);
    expect(json.totals).toEqual([
      { month: '2026-11', repository: '/src/calc', jobs: 2, costUsd: 0.75 },
      { month: '2026-12', repository: '/src/calc', jobs: 1, costUsd: 1 },
      { month: '2026-12', repository: '/src/web', jobs: 1, costUsd: 0 },
    ]);
  });

  it('trace show ID --html writes the page serve shows, the trace’s text escaped, to stdout or a file', async () => {
    const { code, stdout } = await runCli([
      'trace',
      'show',
      'aaaaaa',
      '--html',
      '--data-dir',
      dataDir,
    ]);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/^<!doctype html>/);
    expect(stdout).toContain('<h1>/src/calc — proposed</h1>');
    expect(stdout).toContain('pull request text');
    expect(stdout).toContain('$0.2500, 2 turns');
    expect(stdout).toContain('I read the test.');
    // The trace is hostile: its text is escaped, and the file itself forbids any script.
    expect(stdout).not.toContain('<script>');
    expect(stdout).toContain('&lt;script&gt;');
    expect(stdout).toContain(`default-src 'none'`);
    // A local file: no link back to a jobs list it is not served beside.
    expect(stdout).not.toContain('href="/jobs"');
    const out = path.join(temp.dir, 'job.html');
    const written = await runCli([
      'trace',
      'show',
      'aaaaaa',
      '--html',
      '--output',
      out,
      '--data-dir',
      dataDir,
    ]);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain(`wrote ${out}`);
    expect(readFileSync(out, 'utf8')).toBe(stdout);
    const both = await runCli([
      'trace',
      'show',
      'aaaaaa',
      '--html',
      '--json',
      '--data-dir',
      dataDir,
    ]);
    expect(both.code).toBe(2);
  });
});
