import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildFlakyFixture,
  buildLockfileFixture,
  buildMissingImportFixture,
  localTsc,
  buildOffByOneFixture,
  buildPrettierFixture,
  trajectory,
} from '../../fixtures/build.ts';
import { runCli, runJson } from '../support/cli.ts';
import { offByOneWithConfig } from '../support/config-fixture.ts';
import { makeTempDir } from '../support/tmp.ts';

const gitOut = (dir: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

describe('regreen fix, end to end through the CLI', () => {
  const temp = makeTempDir();
  const dataDir = path.join(temp.dir, 'data');
  const repos = {
    range: path.join(temp.dir, 'range'),
    prettier: path.join(temp.dir, 'prettier'),
    flaky: path.join(temp.dir, 'flaky'),
    lockfile: path.join(temp.dir, 'lockfile'),
  };

  beforeAll(() => {
    buildOffByOneFixture(repos.range);
    buildPrettierFixture(repos.prettier);
    buildFlakyFixture(repos.flaky);
    buildLockfileFixture(repos.lockfile);
  });
  afterAll(temp.cleanup);

  it('fixes the off-by-one through read/edit/run_tests and proposes a branch', async () => {
    const head = gitOut(repos.range, 'rev-parse', 'HEAD');
    const { code, json, stderr } = await runJson([
      'fix',
      '--repo',
      repos.range,
      '--model',
      `script:${trajectory('off-by-one-fix')}`,
      '--data-dir',
      dataDir,
    ]);
    expect(json.status, JSON.stringify(json)).toBe('proposed');
    expect(code).toBe(0);
    expect(json.fixedBy).toBe('agent');
    const branch = String(json.branch);
    expect(branch).toMatch(/^regreen\/[0-9a-f]{12}$/);
    // One progress line per stage, with its duration.
    for (const stage of [
      'intake',
      'prepare',
      'reproduce',
      'recipes',
      'agent',
      'checks',
      'propose',
    ]) {
      expect(stderr).toMatch(new RegExp(`\\[regreen\\] ${stage}\\s+\\d+\\.\\ds`));
    }
    // The fix is a commit on the new branch of the user's repository.
    expect(gitOut(repos.range, 'show', `${branch}:src/range.js`)).toContain('i < n;');
    expect(gitOut(repos.range, 'rev-parse', `${branch}~1`)).toBe(head);
    // The user's checkout is untouched.
    expect(gitOut(repos.range, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(gitOut(repos.range, 'status', '--porcelain')).toBe('');
    expect(readFileSync(path.join(repos.range, 'src', 'range.js'), 'utf8')).toContain('i < n - 1');
    // Every check passed and is reported; the PR text and the trace exist.
    const checks = json.checks as { name: string; ok: boolean }[];
    expect(checks.map((check) => check.name)).toEqual([
      'failing-command-passes',
      'no-regression',
      'base-harness',
      'base-tests-intact',
      'no-shadowing',
      'no-runner-tampering',
      'no-run-dependence',
      'change-tests-pass',
      'protected-files',
      'no-nested-repository',
      'no-escaping-links',
      'readable-diff',
      'diff-limits',
      'no-weakened-tests',
      'no-secrets',
    ]);
    expect(checks.every((check) => check.ok)).toBe(true);
    const prText = readFileSync(String(json.prTextPath), 'utf8');
    expect(prText).toContain('## Checks');
    expect(prText).toContain('src/range.js');
    expect(prText).toContain('loop bound');
    const trace = readFileSync(String(json.tracePath), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(trace.filter((event) => event.type === 'tool').map((event) => event.name)).toEqual([
      'read',
      'edit',
      'run_tests',
    ]);
    expect(
      trace.some(
        (event) => event.type === 'stage' && event.stage === 'checks' && event.phase === 'end',
      ),
    ).toBe(true);
    // Each sandboxed command's cost: the reproduction, the agent's run and the checks' run at least.
    const runs = trace.filter((event) => event.type === 'run');
    expect(runs.length).toBeGreaterThanOrEqual(3);
    for (const run of runs) {
      expect(run.command).toBe('npm test');
      expect(run.ranMs).toBeGreaterThan(0);
      expect(run.ranMs as number).toBeLessThanOrEqual(run.wallMs as number);
    }

    // A second run for the same failure updates the same branch.
    const again = await runJson([
      'fix',
      '--repo',
      repos.range,
      '--model',
      `script:${trajectory('off-by-one-fix')}`,
      '--data-dir',
      dataDir,
    ]);
    expect(again.json.status).toBe('proposed');
    expect(again.json.branch).toBe(branch);
    expect(again.json.updated).toBe(true);
    expect(gitOut(repos.range, 'branch', '--list', 'regreen/*').split('\n')).toHaveLength(1);

    // Once a person commits on the branch, it is theirs: a third run leaves it alone and says so.
    const worktree = path.join(dataDir, 'person');
    execFileSync('git', ['-C', repos.range, 'worktree', 'add', '-q', worktree, branch]);
    execFileSync('git', ['-C', worktree, 'commit', '-q', '--allow-empty', '-m', 'my own commit'], {
      env: {
        ...process.env,
        GIT_COMMITTER_EMAIL: 'dev@example.com',
        GIT_AUTHOR_EMAIL: 'dev@example.com',
      },
    });
    execFileSync('git', ['-C', repos.range, 'worktree', 'remove', '--force', worktree]);
    const mine = gitOut(repos.range, 'rev-parse', branch);
    const third = await runCli([
      'fix',
      '--repo',
      repos.range,
      '--model',
      `script:${trajectory('off-by-one-fix')}`,
      '--data-dir',
      dataDir,
    ]);
    // The progress line names the stage that ended it; the outcome says why, once.
    expect(third.stderr).toMatch(/propose .* error \(forge\)/);
    expect(`${third.stdout}${third.stderr}`).toMatch(
      /has a commit that is not regreen's .* regreen leaves it alone/,
    );
    expect(gitOut(repos.range, 'rev-parse', branch)).toBe(mine);
  });

  it('refuses a fix that deletes the failing assertion, naming the checks', async () => {
    const { code, json } = await runJson([
      'fix',
      '--repo',
      repos.range,
      '--model',
      `script:${trajectory('off-by-one-cheat')}`,
      '--data-dir',
      dataDir,
    ]);
    expect(json.status).toBe('diagnosis');
    expect(code).toBe(1);
    expect(json.category).toBe('checks-failed');
    expect(String(json.reason)).toContain('no-weakened-tests');
    expect(String(json.reason)).toContain('protected-files');
    expect(json.branch).toBeUndefined();
  });

  it('fixes a prettier --check failure with the recipe, no model', async () => {
    const { code, json } = await runJson([
      'fix',
      '--repo',
      repos.prettier,
      '--command',
      'npm run format:check',
      '--data-dir',
      dataDir,
    ]);
    expect(json.status, JSON.stringify(json)).toBe('proposed');
    expect(code).toBe(0);
    expect(json.fixedBy).toBe('recipe prettier');
    const fixed = gitOut(repos.prettier, 'show', `${String(json.branch)}:src/greet.ts`);
    expect(fixed).toContain("return 'hello, ' + name;");
  });

  it("a recipe's tool that formats a protected file leaves it as it was, so the rest of its fix stands", async () => {
    // `prettier -l` names files without [warn]: the recipe formats the whole repository, the
    // one-line package.json (protected) with it; before, the checks refused the whole fix for it.
    const repo = path.join(temp.dir, 'prettier-protected');
    execFileSync('git', ['clone', '-q', repos.prettier, repo]);
    const manifest = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as unknown;
    writeFileSync(path.join(repo, 'package.json'), `${JSON.stringify(manifest)}\n`);
    for (const args of [
      ['add', '-A'],
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'one-line manifest'],
    ])
      execFileSync('git', args, { cwd: repo });
    const { json } = await runJson([
      'fix',
      '--repo',
      repo,
      '--command',
      'npx prettier -l src',
      '--data-dir',
      dataDir,
    ]);
    expect(json.status, JSON.stringify(json)).toBe('proposed');
    expect(json.fixedBy).toBe('recipe prettier');
    const branch = String(json.branch);
    expect(gitOut(repo, 'show', `${branch}:src/greet.ts`)).toContain("return 'hello, ' + name;");
    expect(gitOut(repo, 'diff', '--name-only', 'HEAD', branch).trim()).toBe('src/greet.ts');
  });

  it('derives the command from a workflow job', async () => {
    const { json } = await runJson([
      'fix',
      '--repo',
      repos.prettier,
      '--job',
      'format',
      '--data-dir',
      dataDir,
    ]);
    expect(json.status, JSON.stringify(json)).toBe('proposed');
    expect(json.fixedBy).toBe('recipe prettier');
  });

  it('a --job that names no job of the workflows is a usage error naming the jobs there, not a guess', async () => {
    const { code, stdout, stderr } = await runCli([
      'fix',
      '--repo',
      repos.prettier,
      '--job',
      'nope',
      '--model',
      'none',
      '--data-dir',
      dataDir,
    ]);
    expect(code).toBe(2);
    expect(stdout).toMatch(/no workflow job named "nope"; jobs: format/);
    expect(stderr).not.toMatch(/\[regreen\] reproduce/);
  });

  it('regenerates an out-of-sync lockfile with the recipe', async () => {
    const { json } = await runJson(['fix', '--repo', repos.lockfile, '--data-dir', dataDir]);
    expect(json.status, JSON.stringify(json)).toBe('proposed');
    expect(json.fixedBy).toBe('recipe lockfile-sync');
    expect(gitOut(repos.lockfile, 'show', `${String(json.branch)}:package-lock.json`)).toContain(
      'node_modules/prettier',
    );
  });

  it('adds a missing import with the language server quick fix, no model', async () => {
    const repo = buildMissingImportFixture(path.join(temp.dir, 'missing-import'));
    const { code, json } = await runJson([
      'fix',
      '--repo',
      repo,
      '--command',
      `node ${localTsc()} --noEmit -p .`,
      '--data-dir',
      dataDir,
    ]);
    expect(json.status, JSON.stringify(json)).toBe('proposed');
    expect(code).toBe(0);
    expect(json.fixedBy).toBe('recipe missing-import');
    expect(gitOut(repo, 'show', `${String(json.branch)}:src/report.ts`)).toMatch(
      /^import \{ Square \} from ['"]\.\/shapes(\.js)?['"];?$/m,
    );
  });

  it('reports a flaky test as not reproduced, without running an agent', async () => {
    const { code, json, stderr } = await runJson([
      'fix',
      '--repo',
      repos.flaky,
      '--model',
      `script:${trajectory('off-by-one-fix')}`,
      '--data-dir',
      dataDir,
    ]);
    expect(json.status).toBe('not-reproduced');
    expect(code).toBe(3);
    expect(stderr).not.toMatch(/\[regreen\] agent/);
  });

  it('ends as diagnosis with recipes only when no recipe applies', async () => {
    const { code, json } = await runJson(['fix', '--repo', repos.range, '--data-dir', dataDir]);
    expect(json.status).toBe('diagnosis');
    expect(json.category).toBe('nothing-found');
    expect(code).toBe(1);
  });

  it("says that a local repository's uncommitted changes are not in the job, and leaves them as they were", async () => {
    const dirty = buildOffByOneFixture(path.join(temp.dir, 'dirty'));
    const file = path.join(dirty, 'src', 'range.js');
    const edited = `${readFileSync(file, 'utf8')}// a change of the person's, not committed\n`;
    writeFileSync(file, edited);
    const { code, json, stderr } = await runJson([
      'fix',
      '--repo',
      dirty,
      '--data-dir',
      dataDir,
      '--model',
      'none',
    ]);
    expect(stderr).toMatch(
      /has 1 file\(s\) with uncommitted changes: the job starts from the last commit \(HEAD\), without them/,
    );
    expect(json.status).toBe('diagnosis');
    expect(code).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(edited);
  });

  describe('bad input gets a clear error and changes nothing', () => {
    it('a path that is not a git repository', async () => {
      const plain = path.join(temp.dir, 'plain');
      mkdirSync(plain, { recursive: true });
      const { code, stderr } = await runCli(['fix', '--repo', plain, '--data-dir', dataDir]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/not a git repository/);
      // And what to do about it (a new user's R8).
      expect(stderr).toMatch(/--repo takes the folder of a git clone/);
      // A path with nothing at it is said to be missing, not to be something else.
      const absent = path.join(temp.dir, 'no-such-folder');
      const missing = await runCli(['fix', '--repo', absent, '--data-dir', dataDir]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(new RegExp(`no such folder: ${absent}\\. --repo takes`));
    });

    it('a repository with no commit yet', async () => {
      const empty = path.join(temp.dir, 'empty');
      execFileSync('git', ['init', '-q', empty]);
      const { code, json } = await runJson(['fix', '--repo', empty, '--data-dir', dataDir]);
      expect(code).toBe(2);
      expect(String(json.reason)).toMatch(/has no commit to start from .* Commit the code first/);
    });

    it('a ref that does not exist', async () => {
      const { code, json } = await runJson([
        'fix',
        '--repo',
        repos.range,
        '--ref',
        'no-such-branch',
        '--data-dir',
        dataDir,
      ]);
      expect(code).toBe(2);
      expect(json.status).toBe('error');
      expect(String(json.reason)).toMatch(
        /ref not found.*no-such-branch\. git -C .* branch -a lists/,
      );
    });

    it('a command that does not exist', async () => {
      const { code, json } = await runJson([
        'fix',
        '--repo',
        repos.range,
        '--command',
        'no-such-binary --flag',
        '--data-dir',
        dataDir,
      ]);
      expect(code).toBe(2);
      expect(json.code).toBe('command-not-found');
    });

    it('an invalid config, naming the field and the line', async () => {
      const bad = offByOneWithConfig(
        path.join(temp.dir, 'bad-config'),
        'test_command: npm test\ndiff_limits:\n  max_lines: -4\n',
      );
      const { code, json } = await runJson(['fix', '--repo', bad, '--data-dir', dataDir]);
      expect(code).toBe(2);
      expect(String(json.reason)).toMatch(/regreen\.yml:3: diff_limits\.max_lines/);
      expect(gitOut(bad, 'branch', '--list', 'regreen/*')).toBe('');
    });

    it.each([
      ['a model with no key', 'model: anthropic:claude-sonnet-4-5\n', /ANTHROPIC_API_KEY/],
      ['an unknown model', 'model: gpt-5\n', /unknown model "gpt-5"/],
    ])(
      "the repository config's model is checked when the config is read, before set-up and the reproduce run: %s",
      async (name, config, why) => {
        const repo = offByOneWithConfig(
          path.join(temp.dir, `config-model-${name.replaceAll(' ', '-')}`),
          `${config}setup_command: touch set-up-ran\n`,
        );
        const { code, stdout, stderr } = await runCli(
          ['fix', '--repo', repo, '--data-dir', dataDir, '--json'],
          { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined },
        );
        const json = JSON.parse(stdout) as Record<string, unknown>;
        expect(code, stderr).toBe(2);
        expect(json.code).toBe('config');
        expect(String(json.reason)).toMatch(/\.github\/regreen\.yml chooses the model/);
        expect(String(json.reason)).toMatch(why);
        expect(stderr).not.toMatch(/reproduce|set-up-ran|prepare: .*setup/);
        const trace = readFileSync(String(json.tracePath), 'utf8');
        expect(trace).not.toMatch(/touch set-up-ran/);
      },
    );

    it('an unreadable model script', async () => {
      const { code, stderr } = await runCli([
        'fix',
        '--repo',
        repos.range,
        '--model',
        'script:/nonexistent.json',
        '--data-dir',
        dataDir,
      ]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/cannot read the model script/);
      expect(existsSync(path.join(dataDir, 'jobs'))).toBe(true);
    });
  });

  it('the diagnosis of a reproduced failure with no model names the failing tests, the error and the next steps', async () => {
    const repo = buildOffByOneFixture(path.join(temp.dir, 'range-diagnosis'));
    const { code, json } = await runJson([
      'fix',
      '--repo',
      repo,
      '--model',
      'none',
      '--data-dir',
      dataDir,
    ]);
    expect(code).toBe(1);
    expect(json.status).toBe('diagnosis');
    const text = readFileSync(String(json.reportedAt), 'utf8');
    expect(text).toMatch(/regreen reproduced `npm test` failing \(exit 1\)/);
    expect(text).toMatch(/\*\*Failing:\*\* `range\(n\) yields 0 to n-1`/);
    expect(text).toMatch(/test\/range\.test\.js:\d+/);
    expect(text).toMatch(
      /<summary>What failed<\/summary>[\s\S]*Expected values to be strictly deep-equal/,
    );
    expect(text).toMatch(/Let the agent try: set `ANTHROPIC_API_KEY`/);
    expect(text).toMatch(
      /Reproduce it locally: `regreen fix --repo \S+ --ref [0-9a-f]{12} --command 'npm test'`/,
    );
    expect(text).toMatch(
      /<summary>What was tried<\/summary>[\s\S]*the agent did not run: no model configured/,
    );
  });
});
