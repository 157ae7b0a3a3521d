import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmulatedAnthropic, type ScriptedTurn } from '../support/emulated-anthropic.ts';
import { runCli } from '../support/cli.ts';
import { offByOneWithConfig } from '../support/config-fixture.ts';
import { makeTempDir } from '../support/tmp.ts';

const readRange = {
  type: 'tool_use' as const,
  id: 'p1',
  name: 'read',
  input: { path: '$WORKSPACE/src/range.js' },
};
const fixEdit = {
  type: 'tool_use' as const,
  id: 'f1',
  name: 'edit',
  input: { path: '$WORKSPACE/src/range.js', old: 'i < n - 1', new: 'i < n' },
};

describe('plan mode and workers through the CLI', () => {
  const temp = makeTempDir();
  const dataDir = path.join(temp.dir, 'data');
  afterAll(temp.cleanup);

  it('plan mode: the first phase sees only read tools, and its plan drives the fix and the PR text', async () => {
    const repo = offByOneWithConfig(path.join(temp.dir, 'plan'), 'plan_mode: true\n');
    const turns: ScriptedTurn[] = [
      { content: [{ type: 'text', text: 'Looking at the range code.' }, readRange] },
      {
        content: [
          {
            type: 'text',
            text: 'PLAN: the loop in src/range.js stops at n - 1; make it stop at n; verify with npm test.',
          },
        ],
      },
      { content: [{ type: 'text', text: 'Carrying out the plan.' }, fixEdit] },
      { content: [{ type: 'tool_use', id: 't1', name: 'run_tests', input: {} }] },
      { content: [{ type: 'text', text: 'Fixed the bound.' }] },
    ];
    const server = await new EmulatedAnthropic(turns).start();
    try {
      const result = await runCli(
        ['fix', '--repo', repo, '--model', 'anthropic', '--data-dir', dataDir, '--json'],
        { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url },
      );
      const json = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(json.status, result.stdout).toBe('proposed');
      const toolNames = server.answered.map((request) =>
        (request.body.tools as { name: string }[]).map((tool) => tool.name),
      );
      for (const names of toolNames.slice(0, 2)) {
        expect(names).toContain('read');
        expect(
          names.filter((name) =>
            ['write', 'edit', 'apply_patch', 'run_tests', 'ast_edit', 'resolve'].includes(name),
          ),
        ).toEqual([]);
      }
      expect(toolNames[2]).toEqual(expect.arrayContaining(['edit', 'run_tests']));
      expect(JSON.stringify(server.answered[2]?.body.messages)).toContain(
        'The plan to carry out:\\nPLAN: the loop in src/range.js',
      );
      expect(readFileSync(String(json.prTextPath), 'utf8')).toContain(
        '## Plan\n\nPLAN: the loop in src/range.js stops at n - 1',
      );
    } finally {
      await server.stop();
    }
  });

  it('workers: the orchestrator delegates the fix to a fast worker whose model comes from its tier', async () => {
    const scripts = path.join(temp.dir, 'scripts');
    mkdirSync(scripts, { recursive: true });
    const write = (name: string, turns: unknown[]): string => {
      const file = path.join(scripts, name);
      writeFileSync(file, JSON.stringify({ turns }));
      return file;
    };
    write('fixer.json', [
      { content: [{ type: 'text', text: 'Fixing.' }, fixEdit] },
      { content: [{ type: 'text', text: 'bound fixed' }] },
    ]);
    const main = write('main.json', [
      {
        content: [
          { type: 'text', text: 'Plan: a worker fixes range.js, then I run the tests.' },
          {
            type: 'tool_use',
            id: 's',
            name: 'vibe_spawn',
            input: { brief: 'fix the loop bound in src/range.js', label: 'fixer' },
          },
        ],
      },
      { content: [{ type: 'tool_use', id: 'w', name: 'vibe_wait', input: { worker_id: 'w1' } }] },
      { content: [{ type: 'tool_use', id: 't', name: 'run_tests', input: {} }] },
      { content: [{ type: 'text', text: 'The worker fixed the bound; tests pass.' }] },
    ]);
    const repo = offByOneWithConfig(path.join(temp.dir, 'workers'), 'workers:\n  enabled: true\n');
    // The tiers are the operator's: a repository cannot name a model over the operator's.
    const result = await runCli(
      ['fix', '--repo', repo, '--model', `script:${main}`, '--data-dir', dataDir, '--json'],
      { REGREEN_WORKER_FAST: `script:${path.join(scripts, '{label}.json')}` },
    );
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(json.status, result.stdout).toBe('proposed');
    const trace = readFileSync(String(json.tracePath), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const workerTools = trace
      .filter((event) => event.worker === 'w1' && event.type === 'tool')
      .map((event) => event.name);
    expect(workerTools).toEqual(['edit']);
    expect(trace.some((event) => event.worker === 'w1' && event.message === 'worker started')).toBe(
      true,
    );
  });
});
