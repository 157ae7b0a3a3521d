import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('regreen tools and sandbox commands', () => {
  const temp = makeTempDir();
  const ws = path.join(temp.dir, 'ws');
  const dataDir = path.join(temp.dir, 'data');
  beforeAll(() => {
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'a.txt'), 'one\ntwo\n');
    writeFileSync(path.join(temp.dir, 'secret.txt'), 'SECRET');
    symlinkSync(path.join(temp.dir, 'secret.txt'), path.join(ws, 'link'));
  });
  afterAll(temp.cleanup);

  it('lists the tools by level, as text and JSON', async () => {
    const all = await runCli(['tools', 'list']);
    expect(all.code).toBe(0);
    for (const name of ['read', 'search', 'list', 'write', 'edit', 'apply_patch', 'run_tests'])
      expect(all.stdout).toContain(name);
    const read = await runCli(['tools', 'list', '--level', 'read', '--json']);
    const tools = JSON.parse(read.stdout) as {
      name: string;
      level: string;
      inputSchema: { type: string };
    }[];
    expect(tools.map((tool) => tool.name)).toEqual(['read', 'search', 'list', 'lsp', 'ast_grep']);
    expect(tools[0]?.inputSchema.type).toBe('object');
    expect((await runCli(['tools', 'list', '--level', 'root'])).code).toBe(2);
  });

  it('calls one tool and prints {content, isError}', async () => {
    const result = await runCli([
      'tools',
      'call',
      'read',
      '--workspace',
      ws,
      '--input',
      JSON.stringify({ path: path.join(ws, 'a.txt') }),
      '--data-dir',
      dataDir,
    ]);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as { content: { text: string }[]; isError: boolean };
    expect(parsed.isError).toBe(false);
    expect(parsed.content[0]?.text).toContain('2\ttwo');
  });

  it.each([
    ['a relative path', { path: 'a.txt' }, /must be absolute/],
    ['a symlink out', { path: '$WS/link' }, /symlink/],
  ])('a tool call with %s is an isError result', async (_label, input, message) => {
    const json = JSON.stringify(input).replace('$WS', ws);
    const result = await runCli([
      'tools',
      'call',
      'read',
      '--workspace',
      ws,
      '--input',
      json,
      '--data-dir',
      dataDir,
    ]);
    expect(result.code).toBe(1);
    const parsed = JSON.parse(result.stdout) as { content: { text: string }[]; isError: boolean };
    expect(parsed.isError).toBe(true);
    expect(parsed.content[0]?.text).toMatch(message);
    expect(result.stdout).not.toContain('SECRET');
  });

  it('trace show summarises a trace, skipping malformed lines', async () => {
    const file = path.join(temp.dir, 'trace.jsonl');
    const events = [
      {
        type: 'stage',
        stage: 'reproduce',
        phase: 'end',
        outcome: 'failed (exit 1)',
        durationMs: 800,
      },
      { type: 'note', message: 'budget', data: { model: 'anthropic:claude-sonnet-4-6' } },
      {
        type: 'model',
        turn: 1,
        usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 300, cacheWriteTokens: 0 },
        costUsd: 0.001,
      },
      {
        type: 'tool',
        name: 'edit',
        isError: true,
        output: 'not found: read the file and copy the exact text',
      },
      { type: 'tool', name: 'run_tests', isError: false, output: 'FAIL (exit 1) `npm test`' },
      { type: 'tool', name: 'run_tests', isError: false, output: 'PASS (exit 0) `npm test`' },
      { type: 'note', message: 'outcome', data: { status: 'proposed', branch: 'regreen/abc' } },
    ];
    writeFileSync(file, `${events.map((event) => JSON.stringify(event)).join('\n')}\n{not json\n`);
    const result = await runCli(['trace', 'show', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('model: anthropic:claude-sonnet-4-6, 1 turn(s)');
    expect(result.stdout).toContain(
      'spend: 400 input tokens (75% read from cache, 0 written), 20 output tokens, $0.0010',
    );
    expect(result.stdout).toContain('tools: edit ×1 (1 failed), run_tests ×2');
    expect(result.stdout).toContain('failed edit: not found');
    expect(result.stdout).toContain('test runs: FAIL → PASS');
    expect(result.stdout).toContain('outcome: proposed (regreen/abc)');
    expect(result.stdout).toContain('(1 malformed line(s) skipped)');
    expect((await runCli(['trace', 'show', path.join(temp.dir, 'missing.jsonl')])).code).toBe(2);
  });

  it('rejects malformed --input JSON', async () => {
    const result = await runCli([
      'tools',
      'call',
      'read',
      '--workspace',
      ws,
      '--input',
      '{nope',
      '--data-dir',
      dataDir,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--input is not valid JSON/);
  });

  it('without bubblewrap the sandbox is an error that names the package', async () => {
    const bin = path.join(temp.dir, 'bin-without-bwrap');
    mkdirSync(bin, { recursive: true });
    for (const tool of ['bash', 'sh', 'socat', 'rg', 'git', 'cat', 'env']) {
      const found = execFileSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
      symlinkSync(found, path.join(bin, tool));
    }
    const result = await runCli(
      ['sandbox', 'run', '--workspace', ws, '--data-dir', dataDir, '--', 'true'],
      { PATH: bin },
    );
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/bubblewrap not found.*apt-get install -y bubblewrap/);
  });

  it("as root, the person's folder is theirs again when the command ends: nothing stays the sandbox's uid", async () => {
    if (process.geteuid?.() !== 0) return; // not root: the sandbox's uid is the person's own
    const repo = path.join(temp.dir, 'own');
    mkdirSync(repo, { recursive: true });
    writeFileSync(path.join(repo, 'f.txt'), 'x\n');
    for (const args of [
      ['init', '-q'],
      ['add', '-A'],
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'x'],
    ])
      execFileSync('git', args, { cwd: repo });
    const result = await runCli([
      'sandbox',
      'run',
      '--workspace',
      repo,
      '--data-dir',
      dataDir,
      '--',
      'echo made > new.txt && mkdir -p d && echo y > d/g.txt && id -u',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).not.toBe('0');
    const foreign = execFileSync('find', [repo, '-not', '-user', '0'], { encoding: 'utf8' });
    expect(foreign).toBe('');
    // git takes the folder as the person's own again ("dubious ownership" otherwise).
    expect(execFileSync('git', ['status', '--short'], { cwd: repo, encoding: 'utf8' })).toMatch(
      /\?\? d\/\n\?\? new\.txt/,
    );
  });

  it('--sandbox none runs unconfined and says so loudly', async () => {
    const result = await runCli([
      'sandbox',
      'run',
      '--sandbox',
      'none',
      '--workspace',
      ws,
      '--data-dir',
      dataDir,
      '--',
      'echo unconfined',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('unconfined\n');
    expect(result.stderr).toMatch(/sandbox disabled \(--sandbox none\)/);
  });

  it('sandbox run runs a command as the sandbox does', async () => {
    const inside = await runCli([
      'sandbox',
      'run',
      '--workspace',
      ws,
      '--data-dir',
      dataDir,
      '--',
      'cat a.txt && echo made > b.txt && cat b.txt',
    ]);
    expect(inside.code).toBe(0);
    expect(inside.stdout).toBe('one\ntwo\nmade\n');
    await runCli([
      'sandbox',
      'run',
      '--workspace',
      ws,
      '--data-dir',
      dataDir,
      '--',
      `touch ${path.join(temp.dir, 'x')}`,
    ]);
    // The host's folder is not there: the write lands, if anywhere, in the sandbox's own /tmp.
    expect(existsSync(path.join(temp.dir, 'x'))).toBe(false);
    const system = await runCli([
      'sandbox',
      'run',
      '--workspace',
      ws,
      '--data-dir',
      dataDir,
      '--',
      'touch /etc/regreen-x',
    ]);
    expect(system.code).not.toBe(0);
    const failing = await runCli([
      'sandbox',
      'run',
      '--workspace',
      ws,
      '--data-dir',
      dataDir,
      '--',
      'exit 7',
    ]);
    expect(failing.code).toBe(7);
  });
});
