import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOffByOneFixture, trajectory } from '../../fixtures/build.ts';
import type { ScriptedTurn } from '../support/emulated-anthropic.ts';
import { EmulatedOpenAI } from '../support/emulated-openai.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const fixTurns = (
  JSON.parse(readFileSync(trajectory('off-by-one-fix'), 'utf8')) as { turns: ScriptedTurn[] }
).turns;

describe('regreen fix through the openai adapter against an emulated OpenAI-compatible server', () => {
  const temp = makeTempDir();
  const dataDir = path.join(temp.dir, 'data');
  const repo = path.join(temp.dir, 'range');
  let server: EmulatedOpenAI | undefined;
  beforeAll(() => buildOffByOneFixture(repo));
  afterEach(async () => server?.stop());
  afterAll(temp.cleanup);

  const fix = async (turns: readonly ScriptedTurn[]) => {
    server = await new EmulatedOpenAI(turns).start();
    const result = await runCli(
      ['fix', '--repo', repo, '--model', 'openai:gpt-4.1', '--data-dir', dataDir, '--json'],
      { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url },
    );
    return JSON.parse(result.stdout) as Record<string, unknown>;
  };

  it('fixes the off-by-one with tool calls mapped onto the same contract', async () => {
    const json = await fix(fixTurns);
    expect(json.status, JSON.stringify(json)).toBe('proposed');
    expect(server?.requests).toHaveLength(4);
    const first = server?.requests[0]?.body as {
      tools: { type: string; function: { name: string } }[];
      messages: { role: string }[];
    };
    expect(first.tools.map((tool) => tool.function.name)).toContain('edit');
    expect(first.messages[0]?.role).toBe('system');
    const last = JSON.stringify(server?.requests[3]?.body.messages);
    expect(last).toContain('"role":"tool"');
    expect(last).toContain('PASS (exit 0)');
    expect(
      execFileSync('git', ['show', `${String(json.branch)}:src/range.js`], {
        cwd: repo,
        encoding: 'utf8',
      }),
    ).toContain('i < n;');
  });

  it('turns invalid JSON arguments into an isError result with the schema message', async () => {
    const bad: ScriptedTurn[] = [
      {
        content: [
          { type: 'text', text: 'Plan: read.' },
          { type: 'tool_use', id: 'c1', name: 'read', input: '{"path": ' },
        ],
      },
    ];
    const json = await fix(bad);
    expect(json.status).toBe('diagnosis');
    const second = JSON.stringify(server?.requests[1]?.body.messages);
    expect(second).toMatch(/ERROR: invalid input for read/);
  });
});
