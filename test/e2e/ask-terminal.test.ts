import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOffByOneFixture, trajectory } from '../../fixtures/build.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/regreen.js');
const quote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** Runs the CLI on a pseudo-terminal (util-linux `script`), typing `answers` at each prompt. */
const onTerminal = (
  args: readonly string[],
  answers: readonly string[],
): Promise<{ code: number | null; screen: string }> =>
  new Promise((resolve) => {
    const command = [process.execPath, BIN, ...args].map(quote).join(' ');
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      env: { ...process.env, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let prompts = 0;
    const pending = [...answers];
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      const seen = screen.split('answer> ').length - 1;
      while (prompts < seen) {
        prompts += 1;
        const next = pending.shift();
        if (next !== undefined) child.stdin.write(`${next}\r`);
      }
    });
    child.once('exit', (code) => resolve({ code, screen }));
  });

describe('ask_user at a terminal', () => {
  const temp = makeTempDir();
  const repo = path.join(temp.dir, 'range');
  beforeAll(() => buildOffByOneFixture(repo));
  afterAll(temp.cleanup);

  it('shows the card, corrects a bad answer, and the answer shapes the job and its PR text', async () => {
    const { code, screen } = await onTerminal(
      [
        'fix',
        '--repo',
        repo,
        '--model',
        `script:${trajectory('off-by-one-ask')}`,
        '--data-dir',
        path.join(temp.dir, 'data'),
        '--json',
      ],
      ['5', '1'],
    );
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/regreen has a question:/);
    expect(screen).toMatch(/Should range\(n\) stop before n\?/);
    expect(screen).toMatch(/1\. Stop before n — what the test says/);
    expect(screen).toMatch(/5 is not an option: choose between 1 and 2\./);
    // The outcome's JSON starts a line (the live line may show a tool's input with braces).
    const start = screen.search(/(?:^|\n)\{/);
    const json = JSON.parse(
      screen
        .slice(start + (screen[start] === '\n' ? 1 : 0), screen.lastIndexOf('}') + 1)
        .replaceAll('\r', ''),
    ) as {
      status: string;
      prTextPath: string;
      tracePath: string;
    };
    expect(json.status).toBe('proposed');
    const prText = readFileSync(json.prTextPath, 'utf8');
    expect(prText).toMatch(
      /## Questions asked\n\n- ❓ Should range\(n\) stop before n\? \(asked .*\) — @\S+ at .*: Stop before n/,
    );
    const trace = readFileSync(json.tracePath, 'utf8');
    expect(trace).toMatch(/"message":"question"/);
    expect(trace).toMatch(/"message":"answer".*"labels":\["Stop before n"\]/);
  }, 180_000);

  it('without a terminal ask_user is not registered: the call fails as an unknown tool and the job goes on', async () => {
    const { code, stdout, stderr } = await runCli([
      'fix',
      '--repo',
      repo,
      '--model',
      `script:${trajectory('off-by-one-ask')}`,
      '--data-dir',
      path.join(temp.dir, 'data-no-tty'),
      '--json',
    ]);
    expect(code, stderr).toBe(0);
    const json = JSON.parse(stdout) as { status: string; tracePath: string };
    expect(json.status).toBe('proposed');
    const calls = readFileSync(json.tracePath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(
        (line) =>
          JSON.parse(line) as { type: string; name?: string; isError?: boolean; output?: string },
      );
    const ask = calls.find((e) => e.type === 'tool' && e.name === 'ask_user');
    expect(ask).toMatchObject({ isError: true });
    expect(ask?.output).toMatch(/^unknown tool "ask_user"/);
  }, 180_000);
});
