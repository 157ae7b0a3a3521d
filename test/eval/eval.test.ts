import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEvalFixture } from '../../fixtures/eval-tasks.ts';
import type { EvalReport } from '../../src/eval/run.ts';
import { loadTasks } from '../../src/eval/tasks.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('regreen eval run', () => {
  const temp = makeTempDir('regreen-eval-');
  let fixture: ReturnType<typeof buildEvalFixture>;
  beforeAll(() => {
    fixture = buildEvalFixture(temp.dir);
  });
  afterAll(temp.cleanup);

  const run = async (policy: string, out: string, extra: string[] = []) => {
    const result = await runCli([
      'eval',
      'run',
      '--tasks',
      fixture.tasksFile,
      '--policy',
      policy,
      '--out',
      path.join(temp.dir, out),
      '--concurrency',
      '2',
      '--json',
      ...extra,
    ]);
    return { ...result, report: JSON.parse(result.stdout || '{}') as EvalReport };
  };

  it('oracle resolves every task through the pipeline; the protected manifest is reported', async () => {
    const { code, report, stderr } = await run('oracle', 'oracle');
    expect(code, stderr).toBe(0);
    const byId = Object.fromEntries(report.tasks.map((t) => [t.id, t]));
    expect(byId['range-ci']).toMatchObject({
      resolved: true,
      outcome: 'proposed',
      falseFix: false,
    });
    expect(byId['range-ci']?.diffLines).toBe(byId['range-ci']?.goldLines);
    expect(byId['range-ci']?.outsideGold).toEqual([]);
    expect(byId['sum-hidden']).toMatchObject({ resolved: true, outcome: 'proposed' });
    // The gold patch touches package.json: the checks refuse it, the tests would pass.
    expect(byId['engines-protected']).toMatchObject({ resolved: true, outcome: 'diagnosis' });
    expect(byId['engines-protected']?.checksFired).toContain('protected-files');
    expect(report.summary).toMatchObject({ total: 3, resolved: 3, errors: 0 });
    expect(stderr).toMatch(/\[eval\] 3\/3/);
    const markdown = readFileSync(path.join(temp.dir, 'oracle', 'report.md'), 'utf8');
    expect(markdown).toMatch(/Resolved 3 of 3/);
    expect(markdown).toMatch(
      /\| engines-protected \| ci \| ✅ resolved \| diagnosis \| {2}\| protected-files \|/,
    );
  }, 240_000);

  it('empty resolves none', async () => {
    const { code, report } = await run('empty', 'empty');
    expect(code).toBe(0);
    expect(report.summary).toMatchObject({ total: 3, resolved: 0, errors: 0 });
    for (const task of report.tasks) {
      expect(task.diffLines).toBe(0);
      expect(task.failToPass.some((c) => !c.ok)).toBe(true);
    }
  }, 240_000);

  it('names a broken line of the task file; --keep-going runs the rest; a bad base is a task error', async () => {
    const broken = path.join(temp.dir, 'broken.jsonl');
    const good = readFileSync(fixture.tasksFile, 'utf8').split('\n')[0] ?? '';
    const badBase = JSON.stringify({
      ...JSON.parse(good),
      id: 'bad-base',
      base_commit: 'deadbeef0000',
    });
    writeFileSync(broken, `${good}\n{"id": "x", "repo": 3}\nnot json\n`);
    appendFileSync(broken, `${badBase}\n`);
    const errors = loadTasks(broken).errors;
    expect(errors.map((e) => e.line)).toEqual([2, 3]);
    expect(errors[0]?.message).toMatch(/^repo: /);
    expect(errors[1]?.message).toMatch(/^not JSON/);
    const refused = await runCli([
      'eval',
      'run',
      '--tasks',
      broken,
      '--policy',
      'empty',
      '--out',
      path.join(temp.dir, 'b1'),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/broken\.jsonl:2: repo: /);
    const kept = await runCli([
      'eval',
      'run',
      '--tasks',
      broken,
      '--policy',
      'empty',
      '--out',
      path.join(temp.dir, 'b2'),
      '--keep-going',
      '--json',
    ]);
    const report = JSON.parse(kept.stdout) as EvalReport;
    expect(report.summary.total).toBe(2);
    expect(report.tasks.find((t) => t.id === 'bad-base')?.error).toMatch(/deadbeef0000/);
    expect(kept.code).toBe(1);
  }, 240_000);
});
