/**
 * Issue 57 (items 4, 5, 7 and 10): a failure counts only once the tests ran.
 * - a command whose runner never ran (pytest missing) is the environment's
 *   outcome, said with the missing piece and the fix, and no model is asked;
 * - a replayed job's install step that fails is the set-up's failure, named
 *   by its `name:` and its own `run:` text (never the replay's wrapper), and
 *   never the command the agent and the checks chase;
 * - with no `--command` and no `--job`, the workflow's push and pull-request
 *   jobs run as CI would, to the first step that fails, named with its job;
 * - every judged run of a replayed job is its own test step.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOffByOneFixture, gitIn, makeRepo } from '../../fixtures/build.ts';
import { runCli } from '../support/cli.ts';
import { EmulatedAnthropic } from '../support/emulated-anthropic.ts';
import { startNpmRegistry } from '../support/npm-registry.ts';
import { callsScript, expectProposed, fix } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-counted-');
afterAll(() => temp.cleanup());

/** `regreen fix` with a model on loopback that would edit if it were asked; its requests are counted. */
const fixWithModel = async (
  repo: string,
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<{ json: Record<string, unknown>; stderr: string; code: number; asked: number }> => {
  const model = await new EmulatedAnthropic([
    {
      content: [
        {
          type: 'tool_use',
          id: 'w1',
          name: 'write',
          input: { path: '$WORKSPACE/conftest.py', content: 'x = 1\n' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'done' }] },
  ]).start();
  try {
    const run = await runCli(
      [
        'fix',
        '--repo',
        repo,
        '--model',
        'anthropic',
        '--data-dir',
        path.join(repo, '..', `${path.basename(repo)}-data`),
        '--json',
        ...args,
      ],
      { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: model.url, ...env },
    );
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(run.stdout) as Record<string, unknown>;
    } catch {
      throw new Error(`no outcome (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
    }
    return { json, stderr: run.stderr, code: run.code, asked: model.requests.length };
  } finally {
    await model.stop();
  }
};

const workflow = (repo: string, file: string, text: string): void => {
  mkdirSync(path.join(repo, '.github', 'workflows'), { recursive: true });
  writeFileSync(path.join(repo, '.github', 'workflows', file), text);
};

describe('a runner that never ran', () => {
  it('pytest missing: the environment is named with the fix, and no model is asked', async () => {
    // A src-layout package whose set-up makes its venv but leaves the test runner out.
    const repo = makeRepo(path.join(temp.dir, 'no-pytest'), {
      'pyproject.toml':
        '[project]\nname = "calc"\nversion = "0.1.0"\n\n[project.optional-dependencies]\ntest = ["pytest"]\n',
      'src/calc/__init__.py': 'def add(a, b):\n    return a - b\n',
      'tests/test_calc.py':
        'from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n',
      '.github/regreen.yml': 'setup_command: python3 -m venv --without-pip .venv\n',
    });
    const { json, stderr, code, asked } = await fixWithModel(repo, [
      '--command',
      'python -m pytest -q',
    ]);
    expect(json.status, stderr).toBe('diagnosis');
    expect(json.category).toBe('setup-failed');
    expect(String(json.reason)).toMatch(
      /`python -m pytest -q` exited 1 .*before its runner ran — missing: the Python module `pytest`.*install it in the set-up/,
    );
    expect(asked).toBe(0);
    expect(code).toBe(1);
    expect(stderr).not.toMatch(/\[regreen\] (agent|checks)\b/);
    const text = readFileSync(String(json.reportedAt), 'utf8');
    expect(text).toMatch(
      /failed \(exit 1\) before its runner ran, so the failure was not reproduced/,
    );
    expect(text).not.toMatch(/regreen reproduced/);
  }, 300_000);

  it('a runner that ran and failed is still the failure to fix', async () => {
    const repo = buildOffByOneFixture(path.join(temp.dir, 'ran'));
    const script = callsScript(temp.dir, 'ran', [
      { name: 'edit', input: { path: '$WORKSPACE/src/range.js', old: 'i < n - 1', new: 'i < n' } },
    ]);
    expectProposed(await fix(repo, script), repo, 'src/range.js', 'i < n;');
  }, 300_000);
});

describe('a replayed job whose install step fails', () => {
  it('is the set-up failure, named by its step and its own run: text, before any model', async () => {
    const registry = await startNpmRegistry([]);
    try {
      const repo = buildOffByOneFixture(path.join(temp.dir, 'install-fails'));
      writeFileSync(
        path.join(repo, 'package.json'),
        `${JSON.stringify({ name: 'install-fails', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --test test/' }, devDependencies: { 'regreen-no-such-package': '^1.0.0' } }, null, 2)}\n`,
      );
      // The step carries an env var to later steps, as real jobs do: the replay's plumbing for it
      // must never reach the person.
      workflow(
        repo,
        'ci.yml',
        'name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Mark CI\n        run: echo "CI_MARK=1" >> "$GITHUB_ENV"\n      - name: Install dependencies\n        run: npm install --no-audit --no-fund\n      - name: Unit tests\n        run: npm test\n',
      );
      gitIn(repo, 'add', '-A');
      gitIn(repo, 'commit', '--quiet', '-m', 'a dependency the registry lacks');
      const { json, stderr, asked } = await fixWithModel(repo, ['--job', 'test'], {
        npm_config_registry: registry.url,
        npm_config_cache: path.join(temp.dir, 'install-fails-npm-cache'),
      });
      expect(json.status, stderr).toBe('diagnosis');
      expect(json.category).toBe('setup-failed');
      const reason = String(json.reason);
      expect(reason).toContain(
        'set-up failed — step "Install dependencies" (`npm install --no-audit --no-fund`) of ci.yml:test exited',
      );
      expect(reason).toContain('before step "Unit tests" (`npm test`) could run');
      expect(asked).toBe(0);
      expect(stderr).not.toMatch(/\[regreen\] (agent|checks)\b/);
      const text = readFileSync(String(json.reportedAt), 'utf8');
      // The step's own error, from the end of its output; never the replay's wrapper script.
      expect(text).toMatch(/```text\n[^]*(404|E404|Not Found)[^]*```/);
      expect(text).not.toMatch(/GITHUB_ENV|regreen_carry|regreen-replay-env|set -e/);
      expect(text).toContain("regreen's set-up `npm install --no-audit --no-fund` failed");
    } finally {
      await registry.close();
    }
  }, 300_000);
});

describe('every judged run of a replayed job', () => {
  it("is the job's own test step, not the project's default `npm test`", async () => {
    const repo = buildOffByOneFixture(path.join(temp.dir, 'own-step'));
    writeFileSync(
      path.join(repo, 'package.json'),
      `${JSON.stringify({ name: 'own-step', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node lint.js && node --test test/' } }, null, 2)}\n`,
    );
    writeFileSync(
      path.join(repo, 'lint.js'),
      "console.error('lint: 3 problems'); process.exit(1);\n",
    );
    workflow(
      repo,
      'ci.yml',
      'on: push\njobs:\n  unit:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Install\n        run: npm install --no-audit --no-fund --offline\n      - name: Unit tests\n        run: node --test test/\n',
    );
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '--quiet', '-m', 'CI runs its unit tests alone');
    const script = callsScript(temp.dir, 'own-step', [
      { name: 'edit', input: { path: '$WORKSPACE/src/range.js', old: 'i < n - 1', new: 'i < n' } },
    ]);
    const result = await fix(repo, script, {}, ['--job', 'unit']);
    expectProposed(result, repo, 'src/range.js', 'i < n;');
    const checks = JSON.stringify(result.outcome.checks);
    expect(checks).not.toContain('npm test');
    expect(checks).toContain('node --test test/');
  }, 300_000);
});

describe('no --command and no --job', () => {
  /** The range library, with CI's lint job failing on its style while its tests pass. */
  const lintRepo = (name: string): string => {
    const repo = buildOffByOneFixture(path.join(temp.dir, name));
    writeFileSync(
      path.join(repo, 'src', 'range.js'),
      'export function range(n) {\n  var out = [];\n  for (let i = 0; i < n; i += 1) out.push(i);\n  return out;\n}\n\nexport function sum(values) {\n  return values.reduce((total, value) => total + value, 0);\n}\n',
    );
    writeFileSync(
      path.join(repo, 'lint.js'),
      "import { readFileSync } from 'node:fs';\nconst text = readFileSync('src/range.js', 'utf8');\nif (/\\bvar\\b/.test(text)) { console.error('src/range.js: no-var: use const or let'); process.exit(1); }\nconsole.log('lint: clean');\n",
    );
    return repo;
  };

  it("runs the workflow's push jobs as CI would and stops at the lint step that fails", async () => {
    const repo = lintRepo('red-lint');
    workflow(
      repo,
      'ci.yml',
      'name: CI\non:\n  push:\n  pull_request:\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm test\n  windows:\n    runs-on: windows-latest\n    steps:\n      - run: exit 1\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Lint\n        run: node lint.js\n',
    );
    // A release workflow that would fail: a push never runs it.
    workflow(
      repo,
      'release.yml',
      'on:\n  release:\n    types: [published]\njobs:\n  publish:\n    runs-on: ubuntu-latest\n    steps:\n      - run: exit 7\n',
    );
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '--quiet', '-m', 'a lint job');
    const script = callsScript(temp.dir, 'red-lint', [
      {
        name: 'edit',
        input: { path: '$WORKSPACE/src/range.js', old: 'var out', new: 'const out' },
      },
    ]);
    const result = await fix(repo, script);
    expectProposed(result, repo, 'src/range.js', 'const out = [];');
    const trace = readFileSync(result.outcome.tracePath ?? '', 'utf8');
    expect(trace).toContain('ci.yml:test: all 1 run: step(s) passed');
    expect(trace).toContain('ci.yml:lint: step \\"Lint\\" failed');
    expect(trace).not.toContain('windows');
    expect(JSON.stringify(result.outcome.checks)).toContain('node lint.js');
  }, 300_000);

  it('a workflow whose jobs all pass is not reproduced, listing what was tried', async () => {
    const repo = lintRepo('all-green');
    writeFileSync(
      path.join(repo, 'src', 'range.js'),
      readFileSync(path.join(repo, 'src', 'range.js'), 'utf8').replace('var out', 'const out'),
    );
    workflow(
      repo,
      'ci.yml',
      'on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n  lint:\n    runs-on: ubuntu-22.04\n    steps:\n      - run: node lint.js\n',
    );
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '--quiet', '-m', 'all green');
    const { json, code } = await fixWithModel(repo, []);
    expect(json.status).toBe('not-reproduced');
    expect(code).toBe(3);
    expect(json.tried).toEqual([
      'ci.yml:test: all 1 run: step(s) passed',
      'ci.yml:lint: all 1 run: step(s) passed',
    ]);
    expect(String(json.reason)).toMatch(
      /every step of the workflow jobs a push or pull request runs passed/,
    );
  }, 300_000);

  it('without a workflow, says which command ran and where it came from', async () => {
    const repo = lintRepo('no-workflow');
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '--quiet', '-m', 'the range fixed');
    const { json } = await fixWithModel(repo, []);
    expect(json.status).toBe('not-reproduced');
    expect(String(json.reason)).toMatch(
      /`npm test` passed in .*; the command: the project's default test command, detected from its files \(no workflow job/,
    );
  }, 300_000);
});
