import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
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

  it("commander's usage errors are one line too, saying where to look; their JSON message is one line", async () => {
    const unknown = await runCli(['fix', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      "regreen: unknown option '--bogus'. regreen fix --help lists its options\n",
    );
    const typo = await runCli(['fxi', '--json']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      "regreen: unknown command 'fxi' (did you mean fix?). regreen --help lists the commands\n",
    );
    expect(JSON.parse(typo.stdout)).toEqual({
      error: { code: 'usage', message: "unknown command 'fxi' (did you mean fix?)", exit: 2 },
    });
  });

  it("a subcommand's usage error points at its own help; a workspace that is no folder is a usage error", async () => {
    // A new user's findings: `sandbox run` without --workspace pointed at `regreen sandbox --help`
    // (which lists only `run`), and a missing folder ended as exit 4 with a raw ENOENT.
    const missing = await runCli(['sandbox', 'run', '--', 'true']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/regreen sandbox run --help lists its options\n$/);
    const absent = path.join(temp.dir, 'no-such-folder');
    const noFolder = await runCli(['sandbox', 'run', '--workspace', absent, '--', 'true']);
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toBe(`regreen: --workspace ${absent}: no such folder\n`);
    const file = path.join(temp.dir, 'a-file');
    writeFileSync(file, 'x\n');
    const notFolder = await runCli(['sandbox', 'run', '--workspace', file, '--', 'true']);
    expect(notFolder.code).toBe(2);
    expect(notFolder.stderr).toBe(`regreen: --workspace ${file}: not a folder\n`);
  });

  it('a model the operator has no price for is a usage error before any clone (#37)', async () => {
    const data = path.join(temp.dir, 'data-price');
    const run = await runCli(
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
      { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', REGREEN_PRICES: '' },
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /^regreen: no price is known for openai:gpt-x, so its dollar budget cannot be kept: price it as the operator \(REGREEN_PRICES=/m,
    );
    expect(existsSync(path.join(data, 'jobs'))).toBe(false);
    // Priced by the operator, it goes on to the job.
    const priced = await runCli(
      [
        'fix',
        '--repo',
        tinyRepo(),
        '--model',
        'openai:gpt-x',
        '--command',
        'true',
        '--data-dir',
        data,
      ],
      {
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        REGREEN_PRICES: '{"gpt-x":{"input":0,"output":0}}',
      },
    );
    expect(priced.code, priced.stderr).toBe(3);
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

  it('REGREEN_MODEL is the model as --model is: a bad one is a usage error naming it, before any clone', async () => {
    const data = path.join(temp.dir, 'data-env-model');
    const args = ['fix', '--repo', tinyRepo(), '--command', 'false', '--data-dir', data];
    const bad = await runCli(args, { REGREEN_MODEL: 'gpt4' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^regreen: REGREEN_MODEL: unknown model "gpt4"/m);
    const keyless = await runCli(args, { REGREEN_MODEL: 'anthropic', ANTHROPIC_API_KEY: '' });
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toMatch(/^regreen: REGREEN_MODEL=anthropic needs ANTHROPIC_API_KEY/m);
    expect(existsSync(path.join(data, 'jobs'))).toBe(false);
    // The flag wins over the variable.
    const flag = await runCli([...args, '--model', 'none', '--json'], { REGREEN_MODEL: 'gpt4' });
    expect(flag.code, flag.stderr).toBe(1);
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

  it('a config with several problems: all named at once, each once, an unknown key with a suggestion (#37)', async () => {
    const repo = path.join(temp.dir, 'repo-config');
    execFileSync('git', ['clone', '-q', tinyRepo(), repo]);
    mkdirSync(path.join(repo, '.github'));
    writeFileSync(
      path.join(repo, '.github', 'regreen.yml'),
      'test_comand: npm test\nbudget:\n  max_turns: 0\ndiff_limits: { max_files: ten }\n',
    );
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
      'config',
    ]);
    const run = await runCli([
      'fix',
      '--repo',
      repo,
      '--command',
      'false',
      '--data-dir',
      path.join(temp.dir, 'data-config'),
    ]);
    expect(run.code).toBe(2);
    const problems =
      '.github/regreen.yml: 3 problems: line 1: test_comand: unknown key (did you mean test_command?); ' +
      'line 3: budget.max_turns: Too small: expected number to be >0; ' +
      'line 4: diff_limits.max_files: Invalid input: expected number, received string';
    expect(run.stdout).toContain(`error (config): ${problems}\n`);
    // Said once: the prepare stage's line names the error's code, the outcome says what it is.
    const both = run.stdout + run.stderr;
    expect(both.split('test_comand').length - 1, both).toBe(1);
    expect(run.stderr).toMatch(/^\[regreen\] prepare +\d+\.\ds {2}error \(config\)$/m);
  });
});
