import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEvalFixture } from '../../fixtures/eval-tasks.ts';
import type { EvalReport } from '../../src/eval/types.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const isRoot = process.geteuid?.() === 0;

/**
 * Functional break of the eval by the volume: `eval run` reads "what the
 * job changed" from `<job>/workspace` beside the trace (run.ts), but the
 * job's workspace now lives in `<job>/volume/workspace`, inside an image
 * that is unmounted when the job ends. `existsSync` is false, the change is
 * taken to be empty, and the judge judges the base: the oracle — whose job
 * proposed the gold patch — scores unresolved. (The jobs page's
 * `workspaceOfTrace` makes the same assumption.)
 */
describe.runIf(isRoot)('eval run with the job volume on', () => {
  const temp = makeTempDir('regreen-h-evalrun-');
  let fixture: ReturnType<typeof buildEvalFixture>;
  beforeAll(() => {
    fixture = buildEvalFixture(temp.dir);
  });
  afterAll(temp.cleanup);

  const run = async (volume: 'auto' | 'off') => {
    const result = await runCli(
      [
        'eval',
        'run',
        '--tasks',
        fixture.tasksFile,
        '--policy',
        'oracle',
        '--out',
        path.join(temp.dir, volume),
        '--concurrency',
        '1',
        '--json',
      ],
      { REGREEN_JOB_VOLUME: volume, REGREEN_MAX_DISK_MB: '256' },
    );
    return JSON.parse(result.stdout || '{}') as EvalReport;
  };

  it('off: the oracle resolves range-ci (the baseline)', async () => {
    const report = await run('off');
    expect(report.tasks.find((t) => t.id === 'range-ci')).toMatchObject({
      resolved: true,
      outcome: 'proposed',
    });
  }, 600_000);

  it('auto: the oracle’s proposed fix should be judged as resolved too (it judged the empty change when the workspace was read after the job)', async () => {
    const report = await run('auto');
    const task = report.tasks.find((t) => t.id === 'range-ci');
    expect(task?.outcome).toBe('proposed');
    expect(task, JSON.stringify(task)).toMatchObject({
      resolved: true,
      diffLines: task?.goldLines,
    });
  }, 600_000);
});
