import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLEARED_STUB,
  clearOldToolResults,
  conversationChars,
} from '../../src/agent/context-window.ts';
import { Ledger } from '../../src/agent/ledger.ts';
import { LoopDetector } from '../../src/agent/loop-detector.ts';
import { runAgentLoop } from '../../src/agent/loop.ts';
import { ToolRegistry } from '../../src/agent/tool-registry.ts';
import { memoryTrace } from '../../src/observe/trace.ts';
import { silentLogger } from '../../src/logger.ts';
import { createAnthropicModel } from '../../src/model/anthropic.ts';
import { DEFAULT_PRICES } from '../../src/model/prices.ts';
import type { Message } from '../../src/model/types.ts';
import { redactSecrets } from '../../src/util/secrets.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { coreTools } from '../../tools/index.ts';
import { EmulatedAnthropic } from '../support/emulated-anthropic.ts';
import { makeTempDir } from '../support/tmp.ts';
import { realSandbox, toolContext } from '../support/tool-context.ts';

const clock = (start = 0) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};
const budget = {
  maxTurns: 10,
  maxInputTokens: 10_000,
  maxOutputTokens: 5_000,
  maxCostUsd: 1,
  maxMs: 60_000,
};
const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});
const free = { inputPrice: 0, outputPrice: 0 };

describe('Ledger', () => {
  it('admits a call with an output cap from what is left', () => {
    const ledger = new Ledger({ ...budget, maxOutputTokens: 3000 }, clock());
    const first = ledger.admit({ inputTokens: 100, ...free });
    expect(first).toMatchObject({ ok: true, maxOutputTokens: 3000 });
    ledger.record(usage(100, 2900), 0, first.ok ? first.reservation : undefined);
    expect(ledger.admit({ inputTokens: 100, ...free })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/output token limit/) as unknown,
    });
  });

  it.each([
    ['turns', { ...budget, maxTurns: 1 }, /turn limit/],
    ['input tokens', { ...budget, maxInputTokens: 1_100 }, /input token limit would be passed/],
  ])('refuses the call that would pass the %s limit', (_label, limits, reason) => {
    const ledger = new Ledger(limits, clock());
    ledger.record(usage(1_000, 10), 0);
    const admission = ledger.admit({ inputTokens: 200, ...free });
    expect(admission.ok).toBe(false);
    if (!admission.ok) expect(admission.reason).toMatch(reason);
  });

  it('prices the next call pessimistically against the cost limit', () => {
    const ledger = new Ledger({ ...budget, maxCostUsd: 0.05 }, clock());
    // 10k input tokens at $3/M = $0.03, leaving $0.02 for output at $15/M: 1333 tokens.
    const admitted = ledger.admit({ inputTokens: 10_000, inputPrice: 3e-6, outputPrice: 15e-6 });
    expect(admitted).toMatchObject({ ok: true, maxOutputTokens: 1333 });
    if (admitted.ok) ledger.release(admitted.reservation);
    expect(ledger.admit({ inputTokens: 16_000, inputPrice: 3e-6, outputPrice: 15e-6 }).ok).toBe(
      false,
    );
  });

  it('stops at the wall-time limit', () => {
    const time = clock();
    const ledger = new Ledger(budget, time);
    time.advance(60_000);
    expect(ledger.admit({ inputTokens: 1, ...free })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/time limit/) as unknown,
    });
  });
});

describe('LoopDetector', () => {
  const read = { name: 'read', input: { path: '/w/a.js' }, level: 'read' as const };
  const ok = { isError: false };

  it('warns once on a repeated call, then stops', () => {
    const detector = new LoopDetector({ repeatedCalls: 3, stuckTurns: 10 });
    for (let i = 0; i < 2; i += 1) {
      detector.observe(read, ok);
      expect(detector.endTurn().kind).toBe('ok');
    }
    detector.observe(read, ok);
    expect(detector.endTurn().kind).toBe('warn');
    for (let i = 0; i < 2; i += 1) {
      detector.observe(read, ok);
      expect(detector.endTurn().kind).toBe('ok');
    }
    detector.observe(read, ok);
    expect(detector.endTurn()).toMatchObject({
      kind: 'stop',
      reason: expect.stringMatching(/same read call 3 times/) as unknown,
    });
  });

  it('does not count a call repeated after a file changed', () => {
    const detector = new LoopDetector({ repeatedCalls: 2, stuckTurns: 10 });
    const tests = { name: 'run_tests', input: {}, level: 'exec' as const };
    for (let i = 0; i < 5; i += 1) {
      detector.observe({ name: 'edit', input: { n: i }, level: 'write' }, ok);
      detector.observe(tests, { isError: false, tests: 'failed' as const });
      expect(detector.endTurn().kind).toBe('ok');
    }
  });

  it('flags turns of failing tests with no file change', () => {
    const detector = new LoopDetector({ repeatedCalls: 99, stuckTurns: 3 });
    const verdicts = [0, 1, 2].map((i) => {
      detector.observe(
        { name: 'run_tests', input: { filter: `t${i}` }, level: 'exec' },
        { isError: false, tests: 'failed' as const },
      );
      return detector.endTurn().kind;
    });
    expect(verdicts).toEqual(['ok', 'ok', 'warn']);
  });

  it('waiting on a long-running worker is not a loop', () => {
    const detector = new LoopDetector({ repeatedCalls: 2, stuckTurns: 10 });
    for (let i = 0; i < 5; i += 1) {
      detector.observe({ name: 'vibe_wait', input: { worker_id: 'w1' }, level: 'read' }, ok);
      expect(detector.endTurn().kind).toBe('ok');
    }
  });
});

describe('clearOldToolResults', () => {
  const result = (id: string, text: string): Message => ({
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text }], is_error: false },
    ],
  });
  const call = (id: string): Message => ({
    role: 'assistant',
    content: [{ type: 'tool_use', id, name: 'read', input: {} }],
  });
  const conversation: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'task' }] }];
  for (let i = 0; i < 6; i += 1)
    conversation.push(call(`t${i}`), result(`t${i}`, 'x'.repeat(1000)));

  const size = conversationChars(conversation);

  it('past the hard bound clears every old tool result at once, keeping recent messages and the task', () => {
    const policy = { maxChars: 5000, minChars: 5000, keepRecent: 4 };
    const { messages, cleared } = clearOldToolResults(conversation, policy, 12.5);
    expect(cleared).toBe(4);
    expect(JSON.stringify(messages[0])).toContain('task');
    expect(JSON.stringify(messages.slice(0, -4))).not.toContain('x'.repeat(1000));
    expect(JSON.stringify(messages.slice(-4))).not.toContain(CLEARED_STUB);
    // Clearing again changes nothing: the cleared prefix stays stable.
    expect(clearOldToolResults(messages, policy, 12.5).cleared).toBe(0);
    expect(clearOldToolResults(messages, policy, 12.5).messages).toEqual(messages);
  });

  it('leaves a conversation at or under minChars alone, however cheap clearing is', () => {
    expect(
      clearOldToolResults(conversation, { maxChars: 1e9, minChars: size, keepRecent: 4 }, 1)
        .cleared,
    ).toBe(0);
  });

  it('between the bounds clears only when the reads it saves outweigh the cache it rewrites', () => {
    const policy = { maxChars: 1e9, minChars: 1000, keepRecent: 4 };
    // Without a cache a rewrite costs what a read does: clearing always pays.
    expect(clearOldToolResults(conversation, policy, 1).cleared).toBe(4);
    // With Anthropic's prices (write 1.25×, read 0.1× input) 4000 characters freed do not pay
    // for rewriting the ~2500 after them while the conversation grows ~1100 a turn.
    expect(clearOldToolResults(conversation, policy, 12.5).cleared).toBe(0);
    // Twelve more reads of the same size make it pay: freed² ≥ 2·(12.5 − 1)·growth·rewritten.
    const longer = [...conversation];
    for (let i = 6; i < 18; i += 1) longer.push(call(`t${i}`), result(`t${i}`, 'x'.repeat(1000)));
    expect(clearOldToolResults(longer, policy, 12.5).cleared).toBe(16);
  });
});

describe('redactSecrets', () => {
  it.each([
    [`token ghp_${'a'.repeat(36)} here`, 'token [redacted GitHub token] here'],
    ['key=AKIAIOSFODNN7EXAMPLE', 'key=[redacted AWS access key]'],
    [`sk-ant-api03-${'x'.repeat(40)}`, '[redacted Anthropic key]'],
    ['nothing secret', 'nothing secret'],
  ])('%s', (text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });
});

describe('context clearing keeps the cached prefix', () => {
  const temp = makeTempDir();
  const ws = path.join(temp.dir, 'ws');
  let sandbox: Sandbox;
  let server: EmulatedAnthropic;
  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    writeFileSync(
      path.join(ws, 'big.txt'),
      Array.from({ length: 150 }, (_, i) => `line ${i} ${'y'.repeat(60)}`).join('\n'),
    );
    sandbox = await realSandbox(temp.dir, ws);
    const readBig = (id: string) => ({
      type: 'tool_use' as const,
      id,
      name: 'read',
      input: { path: '$WORKSPACE/big.txt', from: Number(id.slice(1)) + 1 },
    });
    server = await new EmulatedAnthropic([
      { content: [{ type: 'text', text: 'Plan: read big.txt.' }, readBig('r0')] },
      ...Array.from({ length: 6 }, (_, i) => ({ content: [readBig(`r${i + 1}`)] })),
      { content: [{ type: 'text', text: 'Done.' }] },
    ]).start();
  });
  afterAll(async () => {
    await server.stop();
    await sandbox.dispose();
    temp.cleanup();
  });

  it('after a clearing the next request still reads the system prompt and tools from the cache', async () => {
    const trace = memoryTrace();
    const model = createAnthropicModel({
      apiKey: 'test',
      baseURL: server.url,
      model: 'claude-sonnet-4-6',
      timeoutMs: 30_000,
      prices: DEFAULT_PRICES,
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, sleep: () => Promise.resolve() },
      logger: silentLogger(),
    });
    const result = await runAgentLoop({
      model,
      registry: new ToolRegistry(coreTools()),
      filter: { levels: ['read'] },
      ctx: toolContext(ws, sandbox),
      system: `You are regreen. The repository is checked out at ${ws} . Read files.`,
      task: 'Read big.txt.',
      ledger: new Ledger(
        { ...budget, maxInputTokens: 1e7, maxOutputTokens: 1e6, maxCostUsd: 100 },
        { now: () => Date.now() },
      ),
      trace,
      logger: silentLogger(),
      signal: new AbortController().signal,
      clearing: { maxChars: 40_000, minChars: 20_000, keepRecent: 2 },
    });
    expect(result.status).toBe('done');
    const clearingTurns = trace.events.flatMap((event, index) =>
      event.type === 'note' && event.message === 'context cleared' ? [index] : [],
    );
    expect(clearingTurns.length).toBeGreaterThan(0);
    const firstClearing = trace.events
      .slice(0, clearingTurns[0])
      .filter((event) => event.type === 'model').length;
    const after = server.answered[firstClearing];
    expect(JSON.stringify(after?.body.messages)).toContain(CLEARED_STUB);
    expect(after?.usage?.cache_read_input_tokens).toBeGreaterThan(0);
    // And the turn after that reads the cleared conversation from the cache too.
    const next = server.answered[firstClearing + 1];
    expect(next?.usage?.cache_read_input_tokens).toBeGreaterThan(
      after?.usage?.cache_read_input_tokens ?? 0,
    );
  });
});
