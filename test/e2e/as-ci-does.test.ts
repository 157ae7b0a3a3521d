/**
 * regreen reproduces and verifies as the project's CI does:
 * - the failing ref under the name CI built it as (what actions/checkout leaves), in the agent's
 *   workspace and in the fresh check alike: a suite that asks git for its branch (release tools,
 *   changelog generators) sees `main`, never regreen's proposal branch or a detached HEAD;
 * - one command for everything: CI's command is what run_tests, the fresh check and no-regression
 *   run, not the project's default (an `npm test` that also lints);
 * - a set-up that fails is the environment's, not the code's: the job ends with the step, its exit
 *   and its output, before any model, and never hands the install to the agent or the checks.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOffByOneFixture, gitIn } from '../../fixtures/build.ts';
import { callsScript, expectProposed, fix } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';
import { startNpmRegistry, tarballOf } from '../support/npm-registry.ts';

const temp = makeTempDir('regreen-as-ci-');
afterAll(() => temp.cleanup());

const BRANCH_TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

test('the release is cut from main', () => {
  const branch = execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { encoding: 'utf8' }).trim();
  assert.equal(branch, 'main');
});
`;

describe('the checkout CI had', () => {
  it('a suite that reads its branch sees main in the workspace and in the fresh check', async () => {
    const repo = buildOffByOneFixture(path.join(temp.dir, 'release'));
    gitIn(repo, 'branch', '-M', 'main');
    writeFileSync(path.join(repo, 'test', 'branch.test.js'), BRANCH_TEST);
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '--quiet', '-m', 'a test that reads the branch');
    expect(gitIn(repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    const script = callsScript(temp.dir, 'release', [
      {
        name: 'edit',
        input: { path: '$WORKSPACE/src/range.js', old: 'i < n - 1', new: 'i < n' },
      },
      { name: 'run_tests', input: {} },
    ]);
    const result = await fix(repo, script);
    expectProposed(result, repo, 'src/range.js', 'i < n;');
    expect(result.outcome.branch).toMatch(/^regreen\//);
  }, 300_000);
});

describe('one command for everything', () => {
  it("CI's command is the suite: a default `npm test` that also lints is not what judges the fix", async () => {
    const repo = buildOffByOneFixture(path.join(temp.dir, 'lints'));
    writeFileSync(
      path.join(repo, 'package.json'),
      `${JSON.stringify({ name: 'lints', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node lint.js && node --test test/' } }, null, 2)}\n`,
    );
    // A linter CI runs in another job, failing on the base for reasons the fix never touches.
    writeFileSync(
      path.join(repo, 'lint.js'),
      "console.error('lint: 3 problems'); process.exit(1);\n",
    );
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '--quiet', '-m', 'lint in npm test');
    const script = callsScript(temp.dir, 'lints', [
      { name: 'edit', input: { path: '$WORKSPACE/src/range.js', old: 'i < n - 1', new: 'i < n' } },
      { name: 'run_tests', input: {} },
    ]);
    const result = await fix(repo, script, {}, ['--command', 'node --test test/']);
    expectProposed(result, repo, 'src/range.js', 'i < n;');
    expect(JSON.stringify(result.outcome.checks)).not.toContain('npm test');
  }, 300_000);
});

describe("the CI job's own set-up, found by its command", () => {
  const withWorkflows = (name: string, workflows: Record<string, string>): string => {
    const repo = buildOffByOneFixture(path.join(temp.dir, name));
    gitIn(repo, 'branch', '-M', 'main');
    mkdirSync(path.join(repo, '.github', 'workflows'), { recursive: true });
    for (const [file, text] of Object.entries(workflows))
      writeFileSync(path.join(repo, '.github', 'workflows', file), text);
    mkdirSync(path.join(repo, 'scripts'), { recursive: true });
    // A step CI runs before its tests: it generates a module the tests import (no detection guesses it).
    writeFileSync(
      path.join(repo, 'scripts', 'generate.mjs'),
      "import { writeFileSync } from 'node:fs';\nwriteFileSync('src/generated.js', 'export const generated = true;\\n');\n",
    );
    writeFileSync(path.join(repo, '.gitignore'), 'src/generated.js\n');
    writeFileSync(
      path.join(repo, 'test', 'generated.test.js'),
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { generated } from '../src/generated.js';\n\ntest('the generated module is there', () => {\n  assert.equal(generated, true);\n});\n",
    );
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '--quiet', '-m', 'CI generates a module before the tests');
    return repo;
  };
  const job = (run: string): string =>
    `on: push\njobs:\n  unit:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n      - run: node scripts/generate.mjs\n      - run: ${run}\n`;

  it('given only the command, the job whose step runs it is replayed: its steps before it are the set-up', async () => {
    const repo = withWorkflows('generated', { 'ci.yml': job('node --test test/') });
    const script = callsScript(temp.dir, 'generated', [
      { name: 'edit', input: { path: '$WORKSPACE/src/range.js', old: 'i < n - 1', new: 'i < n' } },
    ]);
    const result = await fix(repo, script, {}, ['--command', 'node --test test/']);
    expect(result.stderr).toMatch(/setup: .*node scripts\/generate\.mjs/s);
    expectProposed(result, repo, 'src/range.js', 'i < n;');
  }, 300_000);

  it('a command two workflow jobs run: the one a push runs is replayed, the other named (issue 57)', async () => {
    const nightly = job('node --test test/')
      .replace('on: push', "on:\n  schedule:\n    - cron: '0 3 * * *'")
      .replace('      - run: node scripts/generate.mjs\n', '');
    const repo = withWorkflows('twice', {
      'ci.yml': job('node --test test/'),
      'nightly.yml': nightly,
    });
    const script = callsScript(temp.dir, 'twice', [
      { name: 'edit', input: { path: '$WORKSPACE/src/range.js', old: 'i < n - 1', new: 'i < n' } },
    ]);
    const result = await fix(repo, script, {}, ['--command', 'node --test test/']);
    // ci.yml's set-up generates the module the tests import: nightly's would leave it missing.
    expect(result.stderr).toMatch(/setup: .*node scripts\/generate\.mjs/s);
    expectProposed(result, repo, 'src/range.js', 'i < n;');
    expect(readFileSync(result.outcome.tracePath ?? '', 'utf8')).toContain(
      'ci.yml: unit (push) is replayed; the others: nightly.yml: unit (schedule)',
    );
  }, 300_000);
});

describe('a set-up that fails', () => {
  it('ends the job as "set-up failed" before the model, with the step and its output', async () => {
    const repo = buildOffByOneFixture(path.join(temp.dir, 'broken-setup'));
    mkdirSync(path.join(repo, '.github'), { recursive: true });
    writeFileSync(
      path.join(repo, '.github', 'regreen.yml'),
      'setup_command: "echo fetching the private registry; echo E401 no credentials >&2; exit 3"\n',
    );
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '--quiet', '-m', 'a set-up that needs credentials');
    // A model that would "fix" the set-up by hand if it were asked.
    const script = callsScript(temp.dir, 'never-asked', [
      { name: 'write', input: { path: '$WORKSPACE/.github/regreen.yml', content: 'x: 1\n' } },
    ]);
    const { outcome, stderr } = await fix(repo, script);
    const result = outcome as typeof outcome & { reason?: string; spend?: { turns: number } };
    expect(result.status, stderr).toBe('diagnosis');
    expect(result.reason).toMatch(/could not reproduce: set-up failed .*exited 3/);
    // The diagnosis says what happened (a new user's friction): the set-up failed, nothing was
    // reproduced, and reproducing it locally runs the job's failing command, not the set-up.
    const reported = (outcome as { reportedAt?: string }).reportedAt ?? '';
    const text = readFileSync(reported, 'utf8');
    expect(text).toContain("regreen's set-up `echo fetching");
    expect(text).toMatch(
      /failed \(exit 3\), so the failure was not reproduced and no fix is proposed: set-up failed/,
    );
    expect(text).not.toMatch(/reproduced `echo/);
    expect(text).toMatch(/Reproduce it locally: `regreen fix .*--command 'npm test'`/);
    expect(stderr).not.toMatch(/\[regreen\] agent\b/);
    expect(stderr).not.toMatch(/\[regreen\] checks\b/);
    expect(result.spend?.turns ?? 0).toBe(0);
  }, 300_000);
});

describe('the package manager CI has', () => {
  it('pnpm pinned by packageManager is on PATH for the set-up, the agent and the checks, from a registry without signatures', async () => {
    const registry = await startNpmRegistry(['pnpm-9.15.9.tgz']);
    try {
      const repo = buildOffByOneFixture(path.join(temp.dir, 'pinned-pnpm'));
      gitIn(repo, 'branch', '-M', 'main');
      const sha512 = createHash('sha512')
        .update(readFileSync(tarballOf('pnpm-9.15.9.tgz')))
        .digest('hex');
      writeFileSync(
        path.join(repo, 'package.json'),
        `${JSON.stringify({ name: 'pinned', version: '1.0.0', private: true, type: 'module', packageManager: `pnpm@9.15.9+sha512.${sha512}`, scripts: { test: 'node --test test/' } }, null, 2)}\n`,
      );
      writeFileSync(
        path.join(repo, 'pnpm-lock.yaml'),
        "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\nimporters:\n\n  .: {}\n",
      );
      // CI enables corepack (which writes beside node: read-only in the sandbox) and runs pnpm.
      mkdirSync(path.join(repo, '.github', 'workflows'), { recursive: true });
      writeFileSync(
        path.join(repo, '.github', 'workflows', 'ci.yml'),
        'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: corepack enable\n      - run: pnpm install --frozen-lockfile\n      - run: pnpm test\n',
      );
      gitIn(repo, 'add', '-A');
      gitIn(repo, 'commit', '--quiet', '-m', 'pnpm, pinned');
      const script = callsScript(temp.dir, 'pinned-pnpm', [
        {
          name: 'edit',
          input: { path: '$WORKSPACE/src/range.js', old: 'i < n - 1', new: 'i < n' },
        },
        { name: 'run_tests', input: {} },
      ]);
      const result = await fix(
        repo,
        script,
        {
          npm_config_registry: registry.url,
          npm_config_cache: path.join(temp.dir, 'pinned-pnpm-npm-cache'),
          REGREEN_TOOLS_DIR: path.join(temp.dir, 'pinned-pnpm-tools'),
        },
        ['--command', 'pnpm test'],
      );
      expectProposed(result, repo, 'src/range.js', 'i < n;');
      expect(JSON.stringify(result.outcome.checks)).not.toMatch(/command not found/);
      expect(readFileSync(result.outcome.tracePath ?? '', 'utf8')).toMatch(
        /pnpm 9\.15\.9 \(package\.json's packageManager/,
      );
    } finally {
      await registry.close();
    }
  }, 300_000);
});
