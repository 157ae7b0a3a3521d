import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildEvalFixture } from '../../fixtures/eval-tasks.ts';
import { judge } from '../../src/eval/judge.ts';
import { prepareTaskRepo } from '../../src/eval/task-repo.ts';
import { silentLogger } from '../../src/logger.ts';
import { knownFiles } from '../../src/workspace/repo/known-files.ts';
import { readsFingerprint } from '../../src/workspace/setup/reads.ts';
import { plant } from './support.ts';
import { makeTempDir } from '../support/tmp.ts';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The eval harness judges a change: nothing in the task may hand the change the answer or the verdict. */
describe('the eval harness does not leak the answer', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);
  const { repo, tasks } = buildEvalFixture(path.join(temp.dir, 'fixture'));
  const task = tasks[0];
  if (!task) throw new Error('the fixture has no task');

  it('the task repository holds only the base commit history: no branch, tag or object of the fix', async () => {
    const gold = git(repo, 'rev-parse', 'main').trim();
    git(repo, 'tag', 'v-fixed', gold);
    const dir = path.join(temp.dir, 'task-repo');
    await prepareTaskRepo(task, dir);
    expect(git(dir, 'for-each-ref', '--format=%(refname)').trim()).toBe('refs/heads/regreen-eval');
    expect(git(dir, 'log', '--all', '--format=%H')).not.toContain(gold);
    expect(() => git(dir, 'cat-file', '-e', gold)).toThrow();
  });

  it('from a partial clone (its promisor pack survives any gc), the fix is not in the task repository', async () => {
    const gold = git(repo, 'rev-parse', 'main').trim();
    git(repo, 'config', 'uploadpack.allowFilter', 'true');
    const partial = path.join(temp.dir, 'partial');
    git(temp.dir, 'clone', '-q', '--filter=blob:none', `file://${repo}`, partial);
    // The base's files fetched too (a checkout of the base fetches what it lacks, as a user's would).
    git(partial, 'checkout', '-q', task.base_commit);
    git(partial, 'checkout', '-q', 'main');
    const fromMirror = path.join(temp.dir, 'task-from-partial');
    await prepareTaskRepo({ ...task, repo: partial }, fromMirror);
    expect(() => git(fromMirror, 'cat-file', '-e', gold)).toThrow();
    expect(git(fromMirror, 'rev-parse', 'HEAD~1').trim()).toBe(
      git(repo, 'rev-parse', `${task.base_commit}`).trim(),
    );
  });

  it('a base named by an abbreviated id still yields only the base history', async () => {
    const gold = git(repo, 'rev-parse', 'main').trim();
    const dir = path.join(temp.dir, 'task-abbreviated');
    await prepareTaskRepo({ ...task, base_commit: task.base_commit.slice(0, 10) }, dir);
    expect(git(dir, 'for-each-ref', '--format=%(refname)').trim()).toBe('refs/heads/regreen-eval');
    expect(() => git(dir, 'cat-file', '-e', gold)).toThrow();
  });

  it('a JUnit report shipped by the change is not the one judged', async () => {
    const dir = path.join(temp.dir, 'junit');
    const taskRepo = path.join(dir, 'repo');
    await prepareTaskRepo(task, taskRepo);
    const shipped = [
      'diff --git a/junit.xml b/junit.xml',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/junit.xml',
      '@@ -0,0 +1 @@',
      '+<testsuite><testcase name="range works"/></testsuite>',
      '',
    ].join('\n');
    const verdict = await judge(
      {
        ...task,
        test_reporter: 'junit',
        test_command: 'true',
        fail_to_pass: ['range works'],
        pass_to_pass: [],
      },
      taskRepo,
      shipped,
      dir,
      { sandbox: 'bubblewrap', env: { PATH: process.env.PATH }, logger: silentLogger() },
    );
    expect(verdict.failToPass[0]?.ok).toBe(false);
    expect(verdict.failToPass[0]?.tail).toMatch(/not in the junit report/);
  });

  it('the setup cache keys every manifest, lockfile and package manager config by name, nested ones too, even unread', async () => {
    const ws = path.join(temp.dir, 'mono');
    plant(path.join(ws, 'package.json'), '{"workspaces":["packages/*"]}');
    plant(path.join(ws, 'packages', 'a', 'package.json'), '{"dependencies":{"x":"1"}}');
    const key = async (): Promise<string> =>
      readsFingerprint(ws, { files: [] }, await knownFiles(ws));
    const before = await key();
    plant(path.join(ws, 'packages', 'a', 'package.json'), '{"dependencies":{"x":"2"}}');
    expect(await key()).not.toBe(before);
    const withoutNpmrc = await key();
    plant(path.join(ws, '.npmrc'), 'ignore-scripts=true\n');
    expect(await key()).not.toBe(withoutNpmrc);
  });

  it("preparing and judging a task runs no filter the repository's attributes name", async () => {
    // The repository asks for filter "x" on every file; the operator's own config defines it.
    const hostile = path.join(temp.dir, 'hostile');
    git(hostile.replace(/hostile$/, ''), 'clone', '-q', repo, hostile);
    plant(path.join(hostile, '.gitattributes'), '* filter=x diff=x\n');
    git(hostile, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A');
    git(hostile, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'attributes');
    const base = git(hostile, 'rev-parse', 'HEAD').trim();
    const pwned = path.join(temp.dir, 'PWNED');
    const home = path.join(temp.dir, 'operator-home');
    plant(
      path.join(home, '.gitconfig'),
      `[filter "x"]\n\tclean = "sh -c 'touch ${pwned}; cat'"\n\tsmudge = "sh -c 'touch ${pwned}; cat'"\n[diff "x"]\n\ttextconv = "sh -c 'touch ${pwned}; cat'"\n`,
    );
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      const dir = path.join(temp.dir, 'hostile-task');
      const hostileTask = { ...task, repo: hostile, base_commit: base, test_patch: '' };
      await prepareTaskRepo(hostileTask, path.join(dir, 'repo'));
      await judge(
        { ...hostileTask, fail_to_pass: ['true'], pass_to_pass: [] },
        path.join(dir, 'repo'),
        '',
        dir,
        { sandbox: 'bubblewrap', env: { PATH: process.env.PATH }, logger: silentLogger() },
      );
    } finally {
      process.env.HOME = saved;
    }
    expect(existsSync(pwned)).toBe(false);
  });
});
