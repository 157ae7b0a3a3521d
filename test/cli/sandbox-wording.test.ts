import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

const fix = (sandbox: string, command: string) =>
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
  ]);

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

  it('the sandbox: a command that passes passed in it', async () => {
    const run = await fix('bubblewrap', 'true');
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toMatch(/^not reproduced: `true` passed in regreen's sandbox: /m);
  });
});
