import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDiff } from '../../checks/diff.ts';
import { prText } from '../../src/job/pr-text.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-sandbox-wording-');
afterAll(() => temp.cleanup());

const repo = path.join(temp.dir, 'repo');
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

const fix = (sandbox: string, command: string, more: readonly string[] = []) =>
  runCli([
    'fix',
    '--repo',
    repo,
    '--command',
    command,
    '--sandbox',
    sandbox,
    '--model',
    'none',
    '--data-dir',
    path.join(temp.dir, `data-${sandbox}`),
    ...more,
  ]);

describe('REGREEN_SANDBOX, as the configuration reference says (#37)', () => {
  const fromEnv = (value: string, more: readonly string[] = []) =>
    runCli(
      [
        'fix',
        '--repo',
        repo,
        '--command',
        'true',
        '--model',
        'none',
        '--data-dir',
        path.join(temp.dir, 'data-env'),
        ...more,
      ],
      { REGREEN_SANDBOX: value },
    );

  it('names the sandbox when --sandbox is not given; a bad value is a usage error naming it', async () => {
    const none = await fromEnv('none');
    expect(none.code, none.stderr).toBe(3);
    expect(none.stdout).toMatch(/^not reproduced: `true` passed on the host, with no sandbox/m);
    const bad = await fromEnv('docker');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^regreen: REGREEN_SANDBOX must be bubblewrap or none, not "docker"/m,
    );
  });

  it('the flag wins over it; its old name is noticed as the variable', async () => {
    const flag = await fromEnv('docker', ['--sandbox', 'none']);
    expect(flag.code, flag.stderr).toBe(3);
    const old = await fromEnv('asrt', ['--json']);
    expect(old.stderr).toContain(
      'REGREEN_SANDBOX=asrt is the old name of the bubblewrap sandbox: say bubblewrap',
    );
    expect(old.stdout).toMatch(/in regreen's sandbox/);
  });
});

describe('where the commands ran, as the outcome says it (#37)', () => {
  it('--sandbox none: a command that passes is not said to have passed in a sandbox', async () => {
    const run = await fix('none', 'true');
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toMatch(
      /^not reproduced: `true` passed on the host, with no sandbox: the failure is flaky/m,
    );
    expect(run.stdout).not.toMatch(/in (the|regreen's) sandbox/);
  });

  it('--sandbox none: a failure that no recipe fixes names where it ran in its diagnosis', async () => {
    const run = await fix('none', 'false');
    expect(run.code, run.stdout + run.stderr).toBe(1);
    // The CLI's local forge writes the diagnosis to a file: it says where the command ran.
    const file = run.stdout.match(/^diagnosis: (.+)$/m)?.[1];
    expect(file, run.stdout).toBeDefined();
    const text = readFileSync(file ?? '', 'utf8');
    expect(text).toContain('on the host, with no sandbox');
    expect(text).not.toContain("regreen's sandbox");
  });

  it("--sandbox none: a failure unlike CI's log is not said to be the sandbox's", async () => {
    const log = path.join(temp.dir, 'ci.log');
    writeFileSync(
      log,
      'Run npm test\nsrc/other.ts(3,5): error TS2322: Type string is not assignable to type number.\n##[error]Process completed with exit code 2.\n',
    );
    const run = await fix('none', 'echo "Error: the disk is full of owls" >&2; exit 1', [
      '--log',
      log,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    // The reason is wrapped at 100 columns: read it as one line.
    expect(run.stdout.replace(/\n {2}/g, ' ')).toMatch(
      /^diagnosis \(reproduced-differently\): reproduced differently: none of CI's error lines .* is in regreen's output/m,
    );
    expect(run.stdout).not.toMatch(/sandbox's/);
  });

  it('the sandbox: a command that passes passed in it', async () => {
    const run = await fix('bubblewrap', 'true');
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toMatch(/^not reproduced: `true` passed in regreen's sandbox: /m);
  });

  it('the pull request text says where the fresh check ran: never a sandbox under --sandbox none', () => {
    const text = (sandboxKind: 'none' | 'bubblewrap') =>
      prText({
        command: 'npm test',
        fixedBy: 'recipe prettier',
        plan: '',
        summary: '',
        diff: parseDiff('diff --git a/a.js b/a.js\n--- a/a.js\n+++ b/a.js\n@@ -1 +1 @@\n-a\n+b\n'),
        checks: [{ name: 'failing-command-passes', ok: true, detail: 'exit 0' }],
        testOutput: 'ok',
        fingerprint: 'abc',
        sandboxKind,
      }).body;
    expect(text('none')).toContain(
      '## Test output (fresh clone, on the host with no sandbox, end)',
    );
    expect(text('none')).not.toMatch(/fresh sandbox|and sandbox|in (the|regreen's) sandbox/);
    expect(text('bubblewrap')).toContain('## Test output (fresh clone and sandbox, end)');
  });

  it('--sandbox none: the pull request text of a fix says the tests ran on the host, never in a sandbox', async () => {
    const lib = path.join(temp.dir, 'lib');
    execFileSync('mkdir', ['-p', path.join(lib, 'src')]);
    execFileSync('git', ['init', '-q', lib]);
    writeFileSync(path.join(lib, 'src', 'value.js'), 'module.exports = 1;\n');
    execFileSync('git', ['-C', lib, 'add', '-A']);
    execFileSync('git', [
      '-C',
      lib,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@example.com',
      'commit',
      '-qm',
      'lib',
    ]);
    const script = path.join(temp.dir, 'fix-value.json');
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          {
            content: [
              { type: 'text', text: 'The value must be 2.' },
              {
                type: 'tool_use',
                id: 't1',
                name: 'edit',
                input: { path: '$WORKSPACE/src/value.js', old: '= 1', new: '= 2' },
              },
            ],
          },
          { content: [{ type: 'text', text: 'The value is 2.' }] },
        ],
      }),
    );
    const run = await runCli([
      'fix',
      '--repo',
      lib,
      '--command',
      `node -e "process.exit(require('./src/value.js') === 2 ? 0 : 1)"`,
      '--sandbox',
      'none',
      '--model',
      `script:${script}`,
      '--data-dir',
      path.join(temp.dir, 'data-pr'),
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const file = run.stdout.match(/^PR text: (.+)$/m)?.[1];
    const text = readFileSync(file ?? '', 'utf8');
    expect(text).toContain('ran on the host, with no sandbox');
    expect(text).toContain('## Test output (fresh clone, on the host with no sandbox, end)');
    expect(text).toContain('passes in a fresh clone on the host (no sandbox)');
    expect(text).not.toMatch(/fresh sandbox|regreen's sandbox/);
    // Said once a job, though the job made a workspace and a fresh clone (a new user's R7).
    expect(run.stderr.match(/sandbox disabled \(--sandbox none\)/g)).toHaveLength(1);
  });
});
