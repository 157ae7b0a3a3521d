import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Ledger } from '../../src/agent/ledger.ts';
import { ToolPolicy } from '../../src/agent/tool-policy.ts';
import { ToolRegistry, type ToolGate } from '../../src/agent/tool-registry.ts';
import { memoryTrace } from '../../src/observe/trace.ts';
import { TOOL_LEVELS } from '../../src/config/repo-config.ts';
import { silentLogger } from '../../src/logger.ts';
import { createScriptModel } from '../../src/model/script.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { coreTools } from '../../tools/index.ts';
import { defineTool, ok, resultText, type Tool } from '../../tools/types.ts';
import { WorkerPool } from '../../src/agent/workers/pool.ts';
import { workerTools } from '../../src/agent/workers/worker-tools.ts';
import { makeTempDir } from '../support/tmp.ts';
import { toolContext } from '../support/tool-context.ts';

/** One policy decides what every agent of a job may call: main agent, workers, the plan phase, the kernels' bridge. */
describe('one permission policy', () => {
  const temp = makeTempDir();
  const ws = path.join(temp.dir, 'ws');
  mkdirSync(ws, { recursive: true });
  afterAll(temp.cleanup);
  let ran = 0;
  const exec: Tool = defineTool({
    name: 'run_tests',
    level: 'exec',
    description: 'runs the tests',
    schema: z.object({}),
    run: () => {
      ran += 1;
      return Promise.resolve(ok('PASS'));
    },
  });
  const refuseAll: ToolGate = (name) =>
    Promise.resolve({
      content: [{ type: 'text', text: `Not allowed to run ${name}` }],
      isError: true,
    });
  const ctx = toolContext(ws, {} as Sandbox, 'true');
  const signal = new AbortController().signal;

  it('the main agent: the gate stands in front of every exec tool', async () => {
    const policy = new ToolPolicy({ levels: TOOL_LEVELS, gate: refuseAll });
    const result = await new ToolRegistry([exec]).call(
      'run_tests',
      {},
      ctx,
      signal,
      policy.current(),
    );
    expect(result.isError).toBe(true);
    expect(ran).toBe(0);
  });

  it('the plan phase: read only, for the agent and for a worker it spawns (read_only: false or not)', () => {
    const policy = new ToolPolicy({ levels: TOOL_LEVELS });
    policy.enter(['read']);
    expect(policy.current().levels).toEqual(['read']);
    expect(policy.forWorker(false).levels).toEqual(['read']);
    policy.leave();
    expect(policy.forWorker(false).levels).toEqual(TOOL_LEVELS);
    expect(policy.forWorker(true).levels).toEqual(['read']);
  });

  it('the kernels bridge: a cell calls with what the agent has now', async () => {
    const policy = new ToolPolicy({ levels: TOOL_LEVELS, gate: refuseAll });
    const registry = new ToolRegistry([exec]);
    // What agent.ts hands the eval family as its bridge.
    const bridge = (name: string, input: unknown) =>
      registry.call(name, input, ctx, signal, policy.current());
    policy.enter(['read']);
    expect(resultText(await bridge('run_tests', {}))).toMatch(/unknown tool "run_tests"/);
    policy.leave();
    expect(resultText(await bridge('run_tests', {}))).toMatch(/Not allowed to run run_tests/);
    expect(ran).toBe(0);
  });

  it('a worker: built with the job policy, its exec calls meet the same gate', async () => {
    const script = (name: string, turns: unknown[]): string => {
      const file = path.join(temp.dir, `${name}.json`);
      writeFileSync(file, JSON.stringify({ turns }));
      return file;
    };
    const worker = script('worker', [
      { content: [{ type: 'tool_use', id: 'w1', name: 'run_tests', input: {} }] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const ledger = new Ledger(
      { maxTurns: 20, maxInputTokens: 1e9, maxOutputTokens: 1e7, maxCostUsd: 100, maxMs: 60_000 },
      { now: () => Date.now() },
    );
    const trace = memoryTrace();
    const pool = new WorkerPool({
      maxLive: 2,
      model: () => createScriptModel({ file: worker, workspace: () => ws }),
      tools: () =>
        Promise.resolve([...coreTools().filter((tool) => tool.name !== 'run_tests'), exec]),
      ctx,
      policy: new ToolPolicy({ levels: TOOL_LEVELS, gate: refuseAll }),
      system: 'worker',
      ledger,
      trace,
      logger: silentLogger(),
      clock: { now: () => Date.now() },
      signal,
    });
    const spawned = await pool.spawn({
      brief: 'run the tests',
      label: 'w',
      tier: 'fast',
      readOnly: false,
    });
    expect('id' in spawned).toBe(true);
    if ('id' in spawned) await pool.wait(spawned.id, 30_000, signal);
    expect(ran).toBe(0);
    expect(JSON.stringify(trace.events)).toMatch(/Not allowed to run run_tests/);
    await pool.dispose();
    expect(workerTools(pool).every((tool) => tool.level === 'read')).toBe(true);
  });
});
