import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOffByOneFixture, trajectory } from '../../fixtures/build.ts';
import { EmulatedAnthropic, type Fault, type ScriptedTurn } from '../support/emulated-anthropic.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const fixTurns = (
  JSON.parse(readFileSync(trajectory('off-by-one-fix'), 'utf8')) as { turns: ScriptedTurn[] }
).turns;

describe('regreen fix through the anthropic adapter against the emulated Messages API', () => {
  const temp = makeTempDir();
  const dataDir = path.join(temp.dir, 'data');
  const repo = path.join(temp.dir, 'range');
  let server: EmulatedAnthropic | undefined;
  beforeAll(() => buildOffByOneFixture(repo));
  afterEach(async () => server?.stop());
  afterAll(temp.cleanup);

  const fix = async (
    turns: readonly ScriptedTurn[],
    faults: [number, Fault][] = [],
    extra: string[] = [],
  ) => {
    server = await new EmulatedAnthropic(turns, new Map(faults)).start();
    const result = await runCli(
      [
        'fix',
        '--repo',
        repo,
        '--model',
        'anthropic:claude-sonnet-4-6',
        '--data-dir',
        dataDir,
        '--json',
        ...extra,
      ],
      {
        ANTHROPIC_API_KEY: 'sk-ant-test-key-0000000000000000000000',
        ANTHROPIC_BASE_URL: server.url,
      },
    );
    return { ...result, json: JSON.parse(result.stdout) as Record<string, unknown> };
  };

  it('fixes the off-by-one in several turns, with the prefix read from the cache after the first', async () => {
    const { code, json, stderr } = await fix(fixTurns);
    expect(json.status, JSON.stringify(json)).toBe('proposed');
    expect(code).toBe(0);
    expect(stderr).toMatch(/\[regreen\] budget .*anthropic:claude-sonnet-4-6: budget 40 turns/);
    const answered = server?.answered ?? [];
    expect(answered).toHaveLength(4);
    // The real SDK streamed, with the tools and system prompt as a cached prefix.
    expect(answered.every((request) => request.body.stream === true)).toBe(true);
    const auth = answered[0]?.headers['x-api-key'] ?? answered[0]?.headers.authorization;
    expect(auth).toMatch(/sk-ant-test-key-0000000000000000000000$/);
    expect(answered[0]?.usage?.cache_read_input_tokens).toBe(0);
    for (const request of answered.slice(1))
      expect(request.usage?.cache_read_input_tokens).toBeGreaterThan(0);
    // Tool results went back with is_error and the real outputs.
    const last = JSON.stringify(answered[3]?.body.messages);
    expect(last).toContain('"is_error":false');
    expect(last).toContain('PASS (exit 0)');
    const spend = json.spend as { turns: number; cacheReadTokens: number; costUsd: number };
    expect(spend.turns).toBe(4);
    expect(spend.cacheReadTokens).toBeGreaterThan(0);
    expect(spend.costUsd).toBeGreaterThan(0);
    const branch = String(json.branch);
    expect(
      execFileSync('git', ['show', `${branch}:src/range.js`], { cwd: repo, encoding: 'utf8' }),
    ).toContain('i < n;');
    expect(readFileSync(String(json.prTextPath), 'utf8')).toContain(
      'The range test expects range(3)',
    );
  });

  it.each<[string, Fault]>([
    ['429 with retry-after', { kind: 'status', status: 429, retryAfterSeconds: 1 }],
    ['529 overloaded', { kind: 'status', status: 529 }],
    ['500', { kind: 'status', status: 500 }],
    ['a connection dropped mid-stream', { kind: 'drop-mid-stream' }],
    ['a malformed event', { kind: 'malformed-event' }],
  ])('retries %s and still proposes the fix', async (_label, fault) => {
    const { json } = await fix(fixTurns, [[1, fault]]);
    expect(json.status, JSON.stringify(json)).toBe('proposed');
    expect(server?.requests).toHaveLength(5);
    expect(server?.answered).toHaveLength(4);
  });

  it('a rejected API key is an error outcome, never a success', async () => {
    const { code, json } = await fix(fixTurns, [[0, { kind: 'status', status: 401 }]]);
    expect(json.status).toBe('error');
    expect(json.code).toBe('model');
    expect(String(json.reason)).toMatch(/rejected the API key \(HTTP 401\)/);
    expect(code).toBe(4);
    expect(server?.requests).toHaveLength(1);
  });

  it('gives up after the retry cap with a clear error', async () => {
    const faults: [number, Fault][] = [0, 1, 2, 3, 4, 5].map((index) => [
      index,
      { kind: 'status', status: 529, retryAfterSeconds: 0 },
    ]);
    const { json } = await fix(fixTurns, faults);
    expect(json.status).toBe('error');
    expect(String(json.reason)).toMatch(/overloaded \(gave up after 5 attempts\)/);
    expect(server?.requests).toHaveLength(5);
  });

  it('fails closed at the turn limit: the call that would pass it is never sent', async () => {
    const { code, json } = await fix(fixTurns, [], ['--max-turns', '2']);
    expect(json.status).toBe('diagnosis');
    expect(json.category).toBe('budget');
    expect(String(json.reason)).toMatch(/turn limit reached \(2 turns\)/);
    expect(code).toBe(1);
    expect(server?.requests).toHaveLength(2);
    expect((json.spend as { turns: number }).turns).toBe(2);
  });

  it('fails closed at the cost limit before sending', async () => {
    const { json } = await fix(fixTurns, [], ['--max-cost', '0.0001']);
    expect(json.category).toBe('budget');
    expect(String(json.reason)).toMatch(/cost limit would be passed/);
    expect(server?.requests).toHaveLength(0);
  });

  it('fails closed at the input token limit', async () => {
    const { json } = await fix(fixTurns, [], ['--max-input-tokens', '3000']);
    expect(json.category).toBe('budget');
    expect(String(json.reason)).toMatch(/input token limit would be passed/);
    const spent = json.spend as {
      inputTokens: number;
      cacheReadTokens: number;
      cacheWriteTokens: number;
    };
    expect(spent.inputTokens + spent.cacheReadTokens + spent.cacheWriteTokens).toBeLessThanOrEqual(
      3000,
    );
  });

  it('caps each answer to the output tokens left and stops before the limit', async () => {
    const { json } = await fix(fixTurns, [], ['--max-output-tokens', '400']);
    expect(json.category).toBe('budget');
    expect(String(json.reason)).toMatch(/output token limit reached/);
    const sent = server?.answered ?? [];
    expect(sent[0]?.body.max_tokens).toBe(400);
    expect(Number(sent[1]?.body.max_tokens)).toBeLessThan(400);
    const spent = json.spend as { outputTokens: number };
    expect(spent.outputTokens).toBeLessThanOrEqual(400);
  });

  it('stops a loop after one corrective message', async () => {
    const read = (id: string) => ({
      type: 'tool_use' as const,
      id,
      name: 'read',
      input: { path: '$WORKSPACE/src/range.js' },
    });
    const turns: ScriptedTurn[] = [
      { content: [{ type: 'text', text: 'Plan: read range.js.' }, read('r')] },
      ...Array.from({ length: 10 }, (_, index) => ({ content: [read(`r${index}`)] })),
    ];
    const { json } = await fix(turns);
    expect(json.category).toBe('loop');
    expect(String(json.reason)).toMatch(/loop: the same read call 3 times/);
    const bodies = (server?.answered ?? []).map((request) => JSON.stringify(request.body.messages));
    expect(bodies.some((body) => body.includes('You are going in circles'))).toBe(true);
    expect(server?.answered.length).toBeLessThan(10);
  });
});
