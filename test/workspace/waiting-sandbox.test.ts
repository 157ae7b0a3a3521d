import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.ts';
import { buildSandboxPolicy } from '../../src/workspace/sandbox/policy.ts';
import { sandboxFactory } from '../../src/workspace/sandbox/registry.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { makeTempDir } from '../support/tmp.ts';

/** Long enough for the sandbox to make the next command's own after a command. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 400));

describe('the sandbox made ahead of the next command', () => {
  const temp = makeTempDir('regreen-waiting-');
  afterAll(temp.cleanup);

  const open = async (name: string): Promise<{ sandbox: Sandbox; workspace: string }> => {
    const root = path.join(temp.dir, name);
    const workspace = path.join(root, 'workspace');
    mkdirSync(path.join(workspace, '.git'), { recursive: true });
    writeFileSync(path.join(workspace, '.git', 'marker'), 'first .git\n');
    const sandbox = await sandboxFactory(
      'bubblewrap',
      silentLogger(),
    )(
      buildSandboxPolicy({
        workspace,
        privateDir: path.join(root, 'private'),
        home: path.join(root, 'home'),
        dataDir: path.join(root, 'data'),
        registryHosts: [],
        baseEnv: { PATH: process.env.PATH },
      }),
    );
    return { sandbox, workspace };
  };
  const run = (sandbox: Sandbox, workspace: string, command: string, cwd = workspace) =>
    sandbox.run({ command, cwd, network: 'off', timeoutMs: 30_000, env: { GREETING: 'a b  c' } });

  it('runs a command as its own sandbox would: folder, environment, descriptors, limits', async () => {
    const { sandbox, workspace } = await open('same');
    try {
      mkdirSync(path.join(workspace, 'sub'));
      const command =
        'pwd; id -u; echo "[$GREETING] $0 $#"; ulimit -u; ls /proc/self/fd | sort -n | tr "\\n" " "';
      await settle();
      const ahead = await run(sandbox, workspace, command, path.join(workspace, 'sub'));
      // Holding an entry takes a sandbox of its own, made for the command.
      writeFileSync(path.join(workspace, 'held.txt'), '');
      const own = await sandbox.run({
        command,
        cwd: path.join(workspace, 'sub'),
        network: 'off',
        timeoutMs: 30_000,
        env: { GREETING: 'a b  c' },
        hold: ['held.txt'],
      });
      expect(ahead.exitCode).toBe(0);
      expect(ahead.output).toBe(own.output);
      expect(ahead.output).toContain(`${path.join(workspace, 'sub')}\n`);
      expect(ahead.output).toContain('[a b  c] /bin/bash 0');
      expect(ahead.output.trim().split('\n').at(-1)?.trim()).toBe('0 1 2 3');
    } finally {
      await sandbox.dispose();
    }
  });

  it('is not taken once the .git it pinned was replaced: the command sees the new one, read-only', async () => {
    const { sandbox, workspace } = await open('replaced');
    try {
      expect((await run(sandbox, workspace, 'cat .git/marker')).output).toBe('first .git\n');
      await settle();
      // Between two commands the host's .git is another folder (the old one renamed away).
      renameSync(path.join(workspace, '.git'), path.join(workspace, 'old-git'));
      mkdirSync(path.join(workspace, '.git'));
      writeFileSync(path.join(workspace, '.git', 'marker'), 'second .git\n');
      const after = await run(
        sandbox,
        workspace,
        'cat .git/marker; touch .git/planted 2>/dev/null && echo WROTE',
      );
      expect(after.output).toBe('second .git\n');
    } finally {
      await sandbox.dispose();
    }
  });

  it('goes with the sandbox: nothing of it is left running', async () => {
    const { sandbox, workspace } = await open('disposed');
    await run(sandbox, workspace, 'true');
    await settle();
    const mine = (): string[] =>
      spawnSync('pgrep', ['-f', path.join(temp.dir, 'disposed')], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
    expect(mine().length).toBeGreaterThan(0);
    await sandbox.dispose();
    for (let i = 0; i < 50 && mine().length > 0; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mine()).toEqual([]);
  });

  it('refuses a NUL in the command or a variable, ahead or cold, before anything runs', async () => {
    const { sandbox, workspace } = await open('nul');
    try {
      await run(sandbox, workspace, 'true');
      await settle();
      const proof = path.join(workspace, 'proof');
      const planted = `/bin/bash\0-c\0echo limits=$(ulimit -u) > ${proof}`;
      // Ahead: the command itself.
      await expect(run(sandbox, workspace, `true\0${planted}`)).rejects.toThrow(/NUL/);
      // Cold (a held entry): a declared variable.
      writeFileSync(path.join(workspace, 'held.txt'), '');
      await expect(
        sandbox.run({
          command: 'true',
          cwd: workspace,
          network: 'off',
          timeoutMs: 30_000,
          env: { PLANTED: `x\0${planted}` },
          hold: ['held.txt'],
        }),
      ).rejects.toThrow(/NUL/);
      expect(existsSync(proof)).toBe(false);
      // The sandbox goes on: the next command runs.
      expect((await run(sandbox, workspace, 'echo fine')).output).toBe('fine\n');
    } finally {
      await sandbox.dispose();
    }
  });

  it('runs the next commands in a workspace a command closed to all but its owner, ahead and cold', async () => {
    const { sandbox, workspace } = await open('closed');
    try {
      expect((await run(sandbox, workspace, 'chmod 700 . && echo closed')).output).toBe('closed\n');
      await settle();
      expect(await run(sandbox, workspace, 'echo ahead')).toMatchObject({
        exitCode: 0,
        output: 'ahead\n',
      });
      writeFileSync(path.join(workspace, 'held.txt'), '');
      const cold = await sandbox.run({
        command: 'echo cold',
        cwd: workspace,
        network: 'off',
        timeoutMs: 30_000,
        hold: ['held.txt'],
      });
      expect(cold).toMatchObject({ exitCode: 0, output: 'cold\n' });
      // A folder the command's own uid cannot enter fails that command, not the sandbox.
      expect((await run(sandbox, workspace, 'mkdir shut && chmod 000 shut')).exitCode).toBe(0);
      const shut = await run(sandbox, workspace, 'echo never', path.join(workspace, 'shut'));
      expect(shut.exitCode).toBe(1);
      expect(shut.output).not.toContain('never');
    } finally {
      await sandbox.dispose();
    }
  });

  it("gives no shell of regreen's the command's variables: they reach the command alone, after the limits", async () => {
    const { sandbox, workspace } = await open('variables');
    try {
      const pre = path.join(workspace, 'pre.sh');
      writeFileSync(
        pre,
        `grep "Max processes" /proc/self/limits >> ${path.join(workspace, 'pre-ran')}\n`,
      );
      const env = { 'BASH_FUNC_ulimit%%': '() { :; }', BASH_ENV: pre };
      const probe = 'grep -E "Max (processes|file size)" /proc/self/limits';
      await run(sandbox, workspace, 'true');
      await settle();
      const ahead = await sandbox.run({
        command: probe,
        cwd: workspace,
        network: 'off',
        timeoutMs: 30_000,
        env,
      });
      writeFileSync(path.join(workspace, 'held.txt'), '');
      const cold = await sandbox.run({
        command: probe,
        cwd: workspace,
        network: 'off',
        timeoutMs: 30_000,
        env,
        hold: ['held.txt'],
      });
      for (const result of [ahead, cold]) {
        expect(result.exitCode).toBe(0);
        expect(result.output).toMatch(/Max processes\s+1024\s+1024/);
        expect(result.output).not.toMatch(/Max file size\s+unlimited/);
      }
      // The command's own shell reads its BASH_ENV, as bash does: after the limits, never before.
      const ran = readFileSync(path.join(workspace, 'pre-ran'), 'utf8').trim().split('\n');
      expect(ran.length).toBe(2);
      for (const line of ran) expect(line).toMatch(/Max processes\s+1024\s+1024/);
    } finally {
      await sandbox.dispose();
    }
  });
});
