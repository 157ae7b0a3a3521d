import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runStage, type JobContext } from '../../src/job/context.ts';
import { agentEnd, checksEnd, recipesEnd, reproduceEnd } from '../../src/job/stage-lines.ts';
import { trajectoryHtml } from '../../src/observe/html.ts';
import { fileTrace } from '../../src/observe/trace.ts';
import { traceSteps } from '../../src/observe/trace-read.ts';
import { makeTempDir } from '../support/tmp.ts';

/**
 * A stage records whether it went as it should when it ends; the pages show
 * that verdict, not one guessed from the line (a reproduce that "failed" is
 * the good result, a recipe that applied and still fails is not a pass).
 */
describe('a stage’s verdict is recorded with its end', () => {
  const temp = makeTempDir('regreen-stage-verdict-');
  afterAll(temp.cleanup);
  const file = path.join(temp.dir, 'trace.jsonl');
  const job = {
    deps: { clock: { now: () => 0 } },
    trace: fileTrace(file, { now: () => 0 }),
    signal: new AbortController().signal,
  } as unknown as JobContext;

  it('each stage says its own verdict; the pages show it', async () => {
    await runStage(
      job,
      'reproduce',
      () =>
        Promise.resolve({ failed: true, result: { exitCode: 1 }, fingerprint: 'f00d' } as const),
      reproduceEnd,
    );
    await runStage(
      job,
      'recipes',
      () => Promise.resolve({ fixedBy: undefined, applied: ['engines'] }),
      recipesEnd,
    );
    await runStage(
      job,
      'agent',
      () =>
        Promise.resolve({
          ran: true,
          result: { status: 'suspended', reason: 'asked a person' },
        } as const),
      agentEnd,
    );
    await runStage(
      job,
      'checks',
      () => Promise.resolve({ diff: { files: ['a'] }, results: [{ ok: true }, { ok: false }] }),
      checksEnd,
    );
    // A stage whose line starts with "failed" but which judged itself fine is shown as it judged.
    await runStage(
      job,
      'custom',
      () => Promise.resolve(1),
      () => ({ outcome: 'failed over to the mirror', status: 'pass' }),
    );
    await expect(
      runStage(
        job,
        'propose',
        () => Promise.reject(new Error('the forge is down')),
        () => 'x',
      ),
    ).rejects.toThrow();
    const steps = traceSteps(readFileSync(file, 'utf8')).filter((s) => s.kind === 'stage');
    expect(steps.map((s) => [s.stage, s.status, s.verdict])).toEqual([
      ['reproduce', 'pass', 'reproduced'],
      ['recipes', 'info', undefined],
      ['agent', 'info', 'waiting'],
      ['checks', 'fail', undefined],
      ['custom', 'pass', undefined],
      ['propose', 'fail', undefined],
    ]);
    const html = trajectoryHtml({ summary: '', steps });
    const shown = [...html.matchAll(/data-status="(\w+)"/g)].map((m) => m[1]);
    expect(shown).toEqual(['pass', 'info', 'info', 'fail', 'pass', 'fail']);
    expect(html).toContain('reproduced');
  });

  it('a trace written before stages recorded verdicts is still read from its lines', () => {
    const old = `${JSON.stringify({ type: 'stage', stage: 'reproduce', phase: 'end', outcome: 'failed (exit 1), fingerprint ab', durationMs: 5 })}\n${JSON.stringify({ type: 'stage', stage: 'checks', phase: 'end', outcome: '3/4 passed', durationMs: 5 })}\n`;
    const html = trajectoryHtml({ summary: '', steps: traceSteps(old) });
    expect([...html.matchAll(/data-status="(\w+)"/g)].map((m) => m[1])).toEqual(['pass', 'fail']);
  });
});
