import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/agent/ledger.ts';
import { runAgentLoop } from '../../src/agent/loop.ts';
import { ToolLocks } from '../../tools/locks.ts';
import { ToolPolicy } from '../../src/agent/tool-policy.ts';
import { ToolRegistry } from '../../src/agent/tool-registry.ts';
import { memoryTrace } from '../../src/observe/trace.ts';
import { silentLogger } from '../../src/logger.ts';
import { createScriptModel } from '../../src/model/script.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { FileViews } from '../../tools/files/file-views.ts';
import { coreTools } from '../../tools/index.ts';
import { resultText } from '../../tools/types.ts';
import { WorkerPool } from '../../src/agent/workers/pool.ts';
import { workerTools } from '../../src/agent/workers/worker-tools.ts';
import { makeTempDir } from '../support/tmp.ts';
import { realSandbox, toolContext } from '../support/tool-context.ts';

type Block =
  { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };
const text = (value: string): Block => ({ type: 'text', text: value });
let ids = 0;
const use = (name: string, input: unknown): Block => ({
  type: 'tool_use',
  id: `u${(ids += 1)}`,
  name,
  input,
});

describe('background workers', () => {
  const temp = makeTempDir();
  const ws = path.join(temp.dir, 'ws');
  let sandbox: Sandbox;

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: ws });
    sandbox = await realSandbox(temp.dir, ws);
  });
  afterAll(async () => {
    await sandbox.dispose();
    temp.cleanup();
  });

  const script = (name: string, turns: Block[][]): string => {
    const file = path.join(temp.dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ turns: turns.map((content) => ({ content })) }));
    return file;
  };

  /** Runs an orchestrator script with workers whose scripts are found by label. */
  const orchestrate = async (options: {
    main: Block[][];
    workers: Record<string, Block[][]>;
    maxTurns?: number;
    testCommand?: string;
  }) => {
    const trace = memoryTrace();
    const ledger = new Ledger(
      {
        maxTurns: options.maxTurns ?? 50,
        maxInputTokens: 1e9,
        maxOutputTokens: 1e7,
        maxCostUsd: 100,
        maxMs: 120_000,
      },
      { now: () => Date.now() },
    );
    const files = Object.fromEntries(
      Object.entries(options.workers).map(([label, turns]) => [
        label,
        script(`worker-${label}-${ids}`, turns),
      ]),
    );
    const controller = new AbortController();
    const ctx = {
      ...toolContext(ws, sandbox, options.testCommand ?? 'true'),
      locks: new ToolLocks(),
    };
    const pool = new WorkerPool({
      maxLive: 3,
      model: (_tier, label) =>
        files[label] ? createScriptModel({ file: files[label], workspace: () => ws }) : undefined,
      tools: () => Promise.resolve(coreTools()),
      ctx,
      policy: new ToolPolicy({ levels: ['read', 'write', 'exec'] }),
      system: `You are regreen. The repository is checked out at ${ws} .`,
      ledger,
      trace,
      logger: silentLogger(),
      clock: { now: () => Date.now() },
      signal: controller.signal,
    });
    const result = await runAgentLoop({
      model: createScriptModel({ file: script(`main-${ids}`, options.main), workspace: () => ws }),
      registry: new ToolRegistry([...coreTools(), ...workerTools(pool)]),
      filter: { levels: ['read', 'write', 'exec'] },
      ctx: { ...ctx, views: new FileViews(ctx.workspace) },
      system: 'orchestrator',
      task: 'fix it',
      ledger,
      trace,
      logger: silentLogger(),
      signal: controller.signal,
    });
    const workers = pool.list();
    await pool.dispose();
    const toolOutputs = trace.events.flatMap((event) =>
      event.type === 'tool'
        ? [{ worker: event.worker, name: event.name, isError: event.isError, output: event.output }]
        : [],
    );
    return { result, workers, trace, toolOutputs };
  };

  it('two fast workers edit independent files, a good read-only reviewer reads them', async () => {
    writeFileSync(path.join(ws, 'a.js'), 'export const a = 1;\n');
    writeFileSync(path.join(ws, 'b.js'), 'export const b = 1;\n');
    const { result, workers, trace, toolOutputs } = await orchestrate({
      main: [
        [
          text('Plan: one worker per file, then a review.'),
          use('vibe_spawn', { brief: 'set a to 2', label: 'fix-a' }),
          use('vibe_spawn', { brief: 'set b to 2', label: 'fix-b' }),
        ],
        [use('vibe_wait', { worker_id: 'w1' }), use('vibe_wait', { worker_id: 'w2' })],
        [
          use('vibe_spawn', {
            brief: 'review a.js and b.js',
            label: 'review',
            tier: 'good',
            read_only: true,
          }),
        ],
        [use('vibe_wait', { worker_id: 'w3' })],
        [use('vibe_list', {})],
        [text('Both values fixed and reviewed.')],
      ],
      workers: {
        'fix-a': [
          [use('edit', { path: '$WORKSPACE/a.js', old: 'a = 1', new: 'a = 2' })],
          [text('a is 2')],
        ],
        'fix-b': [
          [use('edit', { path: '$WORKSPACE/b.js', old: 'b = 1', new: 'b = 2' })],
          [text('b is 2')],
        ],
        review: [
          [
            use('read', { path: '$WORKSPACE/a.js' }),
            use('read', { path: '$WORKSPACE/b.js' }),
            use('write', { path: '$WORKSPACE/c.js', content: 'x' }),
          ],
          [text('LGTM')],
        ],
      },
    });
    expect(result.status).toBe('done');
    expect(readFileSync(path.join(ws, 'a.js'), 'utf8')).toContain('a = 2');
    expect(readFileSync(path.join(ws, 'b.js'), 'utf8')).toContain('b = 2');
    expect(workers.map((w) => [w.id, w.label, w.tier, w.state, w.lastResult])).toEqual([
      ['w1', 'fix-a', 'fast', 'done', 'a is 2'],
      ['w2', 'fix-b', 'fast', 'done', 'b is 2'],
      ['w3', 'review', 'good', 'done', 'LGTM'],
    ]);
    // The read-only reviewer does not even see write.
    const reviewWrite = toolOutputs.find((call) => call.worker === 'w3' && call.name === 'write');
    expect(reviewWrite?.isError).toBe(true);
    expect(reviewWrite?.output).toMatch(/unknown tool "write"/);
    // Each worker's transcript is nested in the job's trace, and the list shows every worker.
    expect(
      trace.events
        .filter((event) => event.worker === 'w1' && event.type === 'tool')
        .map((event) => (event.type === 'tool' ? event.name : '')),
    ).toEqual(['edit']);
    expect(toolOutputs.find((call) => call.name === 'vibe_list')?.output).toMatch(
      /w3 "review" tier good \(read-only\): done/,
    );
  });

  it('vibe_wait says when it timed out; vibe_kill cancels the tool call in flight', async () => {
    const { workers, toolOutputs } = await orchestrate({
      testCommand: 'sleep 30',
      main: [
        [
          text('Plan: run the slow tests in a worker.'),
          use('vibe_spawn', { brief: 'run the tests', label: 'slow' }),
        ],
        [use('vibe_wait', { worker_id: 'w1', timeout_seconds: 0.5 })],
        [use('vibe_kill', { worker_id: 'w1' })],
        [text('stopped it')],
      ],
      workers: { slow: [[use('run_tests', {})], [text('tests ran')]] },
    });
    expect(toolOutputs.find((call) => call.name === 'vibe_wait')?.output).toMatch(
      /^still running after 0.5s/,
    );
    expect(toolOutputs.find((call) => call.name === 'vibe_kill')?.output).toMatch(
      /^stopped: w1 "slow" tier fast: killed/,
    );
    expect(workers[0]?.state).toBe('killed');
    const slowRun = toolOutputs.find((call) => call.worker === 'w1' && call.name === 'run_tests');
    expect(slowRun?.output).not.toMatch(/^PASS/);
  });

  it('vibe_send gives a finished worker more to do and runs it again', async () => {
    const { workers, toolOutputs } = await orchestrate({
      main: [
        [text('Plan: ask twice.'), use('vibe_spawn', { brief: 'count', label: 'counter' })],
        [use('vibe_wait', { worker_id: 'w1' })],
        [use('vibe_send', { worker_id: 'w1', message: 'count again' })],
        [use('vibe_wait', { worker_id: 'w1' })],
        [text('done')],
      ],
      workers: { counter: [[text('one')], [text('two')]] },
    });
    const waits = toolOutputs
      .filter((call) => call.name === 'vibe_wait')
      .map((call) => call.output);
    expect(waits[0]).toMatch(/finished: .*: done, [\d.]+s\n {2}one/);
    expect(waits[1]).toMatch(/finished: .*: done, [\d.]+s\n {2}two/);
    expect(workers[0]?.lastResult).toBe('two');
  });

  it('a worker editing a file another worker changed since it read it is told to re-read', async () => {
    writeFileSync(path.join(ws, 'shared.js'), 'export const v = 1;\n');
    const { toolOutputs } = await orchestrate({
      main: [
        [
          text('Plan: two workers on one file.'),
          use('vibe_spawn', { brief: 'read shared.js', label: 'first' }),
        ],
        [use('vibe_wait', { worker_id: 'w1' })],
        [use('vibe_spawn', { brief: 'change shared.js', label: 'second' })],
        [use('vibe_wait', { worker_id: 'w2' })],
        [use('vibe_send', { worker_id: 'w1', message: 'now change it' })],
        [use('vibe_wait', { worker_id: 'w1' })],
        [text('done')],
      ],
      workers: {
        first: [
          [use('read', { path: '$WORKSPACE/shared.js' })],
          [text('read it')],
          [use('edit', { path: '$WORKSPACE/shared.js', old: 'export const', new: 'export let' })],
          [text('tried')],
        ],
        second: [
          [use('edit', { path: '$WORKSPACE/shared.js', old: 'v = 1', new: 'v = 2' })],
          [text('changed')],
        ],
      },
    });
    const conflict = toolOutputs.find((call) => call.worker === 'w1' && call.name === 'edit');
    expect(conflict?.isError).toBe(true);
    expect(conflict?.output).toMatch(/shared\.js changed since you last read it .*read it again/);
    expect(readFileSync(path.join(ws, 'shared.js'), 'utf8')).toBe('export const v = 2;\n');
  });

  it('one ledger: when the budget is spent every worker stops', async () => {
    const busy = Array.from({ length: 20 }, (_, i) => [
      use('list', { path: `$WORKSPACE` }),
      text(`step ${i}`),
    ]);
    const { result, workers } = await orchestrate({
      maxTurns: 8,
      main: [
        [
          text('Plan: two busy workers.'),
          use('vibe_spawn', { brief: 'work', label: 'busy-1' }),
          use('vibe_spawn', { brief: 'work', label: 'busy-2' }),
        ],
        [use('vibe_wait', { worker_id: 'w1' }), use('vibe_wait', { worker_id: 'w2' })],
        [text('done')],
      ],
      workers: { 'busy-1': busy, 'busy-2': busy },
    });
    expect(workers.map((worker) => worker.state)).toEqual(['budget', 'budget']);
    expect(result.status).toBe('budget');
    expect(result.spend.turns).toBe(8);
  });

  it('caps live workers and refuses a tier with no model', async () => {
    const { toolOutputs } = await orchestrate({
      testCommand: 'sleep 5',
      main: [
        [
          text('Plan: too many.'),
          ...['1', '2', '3', '4'].map((n) =>
            use('vibe_spawn', { brief: 'run tests', label: 'slow' + n }),
          ),
          use('vibe_spawn', { brief: 'x', label: 'nobody' }),
        ],
        [text('done')],
      ],
      workers: Object.fromEntries(
        ['1', '2', '3', '4'].map((n) => ['slow' + n, [[use('run_tests', {})], [text('ok')]]]),
      ),
    });
    const spawns = toolOutputs.filter((call) => call.name === 'vibe_spawn');
    expect(spawns.map((call) => call.isError)).toEqual([false, false, false, true, true]);
    expect(spawns[3]?.output).toMatch(/3 workers are running, the most this job allows/);
  });
});

describe('plan mode', () => {
  it('shows the model no write or exec tool', () => {
    const names = new ToolRegistry(coreTools())
      .definitions({ levels: ['read'] })
      .map((tool) => tool.name);
    expect(names).toEqual(['read', 'search', 'list']);
    expect(
      resultText({ content: [{ type: 'text', text: names.join(',') }], isError: false }),
    ).not.toMatch(/write|edit|apply_patch|run_tests/);
  });
});
