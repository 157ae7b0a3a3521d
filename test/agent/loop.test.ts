import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/agent/ledger.ts';
import { PLAN_REMINDER, runAgentLoop } from '../../src/agent/loop.ts';
import { ToolRegistry } from '../../src/agent/tool-registry.ts';
import { memoryTrace } from '../../src/observe/trace.ts';
import { silentLogger } from '../../src/logger.ts';
import { createScriptModel } from '../../src/model/script.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { coreTools } from '../../tools/index.ts';
import { makeTempDir } from '../support/tmp.ts';
import { realSandbox, toolContext } from '../support/tool-context.ts';

describe('agent loop with the script model', () => {
  const temp = makeTempDir();
  const ws = path.join(temp.dir, 'ws');
  let sandbox: Sandbox;
  const clock = { now: () => Date.now() };

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'a.txt'), 'hello\n');
    sandbox = await realSandbox(temp.dir, ws);
  });
  afterAll(async () => {
    await sandbox.dispose();
    temp.cleanup();
  });

  const script = (name: string, turns: unknown[]): string => {
    const file = path.join(temp.dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ turns }));
    return file;
  };

  const loop = (
    file: string,
    maxTurns = 10,
    levels: ('read' | 'write' | 'exec')[] = ['read', 'write', 'exec'],
    onStep?: (step: { turn: number; tool?: { name: string; input: unknown } }) => void,
  ) => {
    const trace = memoryTrace();
    const ledger = new Ledger(
      { maxTurns, maxInputTokens: 1e9, maxOutputTokens: 1e6, maxCostUsd: 100, maxMs: 60_000 },
      clock,
    );
    const result = runAgentLoop({
      model: createScriptModel({ file, workspace: () => ws }),
      registry: new ToolRegistry(coreTools()),
      filter: { levels },
      ctx: toolContext(ws, sandbox),
      system: 'system',
      task: 'task',
      ledger,
      trace,
      logger: silentLogger(),
      signal: new AbortController().signal,
      ...(onStep ? { onStep } : {}),
    });
    return { result, trace, ledger };
  };

  it('runs tool calls with $WORKSPACE replaced and ends when the script runs out', async () => {
    const file = script('edit', [
      {
        content: [
          {
            type: 'tool_use',
            id: 't1',
            name: 'edit',
            input: { path: '$WORKSPACE/a.txt', old: 'hello', new: 'bye' },
          },
        ],
      },
    ]);
    const { result, trace } = loop(file);
    const done = await result;
    expect(done.status).toBe('done');
    expect(readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('bye\n');
    const tools = trace.events.filter((event) => event.type === 'tool');
    expect(tools).toHaveLength(1);
    expect(done.messages.at(-2)?.role).toBe('user');
  });

  it('turns unknown tools and bad inputs into error results the model sees', async () => {
    const file = script('bad', [
      {
        content: [
          { type: 'tool_use', id: 't1', name: 'rm_rf', input: {} },
          { type: 'tool_use', id: 't2', name: 'read', input: { path: 42 } },
        ],
      },
    ]);
    const done = await loop(file).result;
    const results = done.messages[2];
    expect(results?.role).toBe('user');
    const blocks = results?.role === 'user' ? results.content : [];
    expect(
      blocks.map((block) => (block.type === 'tool_result' ? block.is_error : block.text)),
    ).toEqual([true, true, PLAN_REMINDER]);
    expect(JSON.stringify(blocks)).toMatch(/unknown tool \\"rm_rf\\"/);
  });

  it('fails closed at the turn limit', async () => {
    const turn = {
      content: [{ type: 'tool_use', id: 't', name: 'list', input: { path: '$WORKSPACE' } }],
    };
    const { result, ledger } = loop(script('long', [turn, turn, turn, turn]), 2);
    const done = await result;
    expect(done.status).toBe('budget');
    expect(ledger.spend().turns).toBe(2);
  });

  it('hides tools of levels the surface does not see', async () => {
    const file = script('plan', [
      {
        content: [
          {
            type: 'tool_use',
            id: 't',
            name: 'write',
            input: { path: '$WORKSPACE/b.txt', content: 'x' },
          },
        ],
      },
    ]);
    const done = await loop(file, 10, ['read']).result;
    expect(JSON.stringify(done.messages)).toMatch(
      /unknown tool \\"write\\": the tools available are read, search, list/,
    );
  });

  it('tells each step as it begins: the model asked for turn N, then each tool before it runs', async () => {
    const file = script('steps', [
      {
        content: [
          { type: 'tool_use', id: 't1', name: 'read', input: { path: '$WORKSPACE/a.txt' } },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const steps: string[] = [];
    // The first step is told before loop() returns its trace.
    const seen: { trace?: ReturnType<typeof memoryTrace> } = {};
    const run = loop(file, 10, undefined, (step) => {
      const ran = (seen.trace?.events ?? []).filter((event) => event.type === 'tool').length;
      steps.push(
        step.tool
          ? `turn ${step.turn}: ${step.tool.name} (tools ran: ${ran})`
          : `turn ${step.turn}: model`,
      );
    });
    seen.trace = run.trace;
    await run.result;
    // The live line shows the tool while it runs, not after: no tool event is traced yet when it is told.
    expect(steps).toEqual(['turn 1: model', 'turn 1: read (tools ran: 0)', 'turn 2: model']);
  });
});
