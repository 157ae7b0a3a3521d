import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-errors-');
afterAll(() => temp.cleanup());

const tinyRepo = (): string => {
  const repo = path.join(temp.dir, 'repo');
  if (existsSync(repo)) return repo;
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  execFileSync('git', ['-C', repo, 'add', '-A']);
  execFileSync('git', [
    '-C',
    repo,
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@example.com',
    'commit',
    '-qm',
    'a',
  ]);
  return repo;
};

describe('errors at the terminal', () => {
  it('one style on stderr; with --json, the error is a JSON object on stdout with its exit code', async () => {
    const plain = await runCli(['fix', '--sandbox', 'docker']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(
      /^regreen: the sandbox must be bubblewrap or none, not "docker"$/m,
    );
    expect(plain.stdout).toBe('');
    const json = await runCli(['fix', '--json', '--sandbox', 'docker']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        code: 'usage',
        message: 'the sandbox must be bubblewrap or none, not "docker"',
        exit: 2,
      },
    });
    const unknown = await runCli(['fix', '--json', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toMatchObject({
      error: { code: 'usage', message: "unknown option '--bogus'", exit: 2 },
    });
  });

  it("a flag's model without its key is a usage error before any clone", async () => {
    const data = path.join(temp.dir, 'data-key');
    const run = await runCli(
      [
        'fix',
        '--repo',
        tinyRepo(),
        '--model',
        'anthropic',
        '--command',
        'false',
        '--json',
        '--data-dir',
        data,
      ],
      { ANTHROPIC_API_KEY: '' },
    );
    expect(run.code).toBe(2);
    const parsed = JSON.parse(run.stdout) as { error: { code: string; message: string } };
    expect(parsed.error.code).toBe('usage');
    expect(parsed.error.message).toMatch(/needs ANTHROPIC_API_KEY/);
    // Nothing was cloned: no job folder.
    expect(existsSync(path.join(data, 'jobs'))).toBe(false);
    // An OpenAI model with neither a server nor a key is told so at once, not after retries.
    const openai = await runCli(
      [
        'fix',
        '--repo',
        tinyRepo(),
        '--model',
        'openai:gpt-x',
        '--command',
        'false',
        '--data-dir',
        data,
      ],
      { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    );
    expect(openai.code).toBe(2);
    expect(openai.stderr).toMatch(/needs OPENAI_BASE_URL .* or OPENAI_API_KEY/);
    expect(existsSync(path.join(data, 'jobs'))).toBe(false);
  });

  it('an error the job ends with carries the same error object in its JSON', async () => {
    const run = await runCli([
      'fix',
      '--repo',
      tinyRepo(),
      '--ref',
      'no-such-ref',
      '--command',
      'false',
      '--json',
      '--data-dir',
      path.join(temp.dir, 'data-ref'),
    ]);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'error',
      error: { code: 'ref-not-found', exit: 2 },
    });
  });
});
