import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitIn, makeRepo } from '../../fixtures/build.ts';
import { callsScript, fix, type Fixed } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

/**
 * The fresh check's clone and setup are made while the agent works, from the
 * base. The setup here (`node install.mjs`) writes the dependency the test
 * imports; in the folder named `fresh` it can also wait, to show a job that
 * ends early stops it.
 */
const repoWithInstaller = (dir: string, installer: string[]): string =>
  makeRepo(dir, {
    'package.json': `${JSON.stringify({ name: 'fixture-early', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --test test/' } }, null, 2)}\n`,
    '.gitignore': 'node_modules/\n',
    '.github/regreen.yml': 'setup_command: node install.mjs\n',
    'install.mjs': [
      "import { mkdirSync, writeFileSync } from 'node:fs';",
      "import path from 'node:path';",
      ...installer,
      "mkdirSync('node_modules/limit', { recursive: true });",
      "writeFileSync('node_modules/limit/package.json', JSON.stringify({ name: 'limit', type: 'module', main: 'index.js' }));",
      "writeFileSync('node_modules/limit/index.js', 'export const bound = 0;\\n');",
      '',
    ].join('\n'),
    'src/range.js':
      "import { bound } from 'limit';\n\nexport function range(n) {\n  const out = [];\n  for (let i = 0; i < n - 1 + bound; i += 1) out.push(i);\n  return out;\n}\n",
    'test/range.test.js': [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import { range } from '../src/range.js';",
      '',
      "test('range(3) counts to 2', () => {",
      '  assert.deepEqual(range(3), [0, 1, 2]);',
      '});',
      '',
    ].join('\n'),
  });

const notes = (outcome: Fixed): string[] =>
  readFileSync(outcome.tracePath ?? '', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; message?: string })
    .filter((event) => event.type === 'note' && event.message?.startsWith('fresh check'))
    .map((event) => event.message ?? '');

/** Fresh trees still on disk after the job (the early one, the spare, one made after the fix). */
const treesLeft = (repo: string, name: string): string[] => {
  const jobs = path.join(repo, '..', `${name}-data`, 'jobs');
  return readdirSync(jobs).flatMap((job) =>
    readdirSync(path.join(jobs, job)).filter((entry) => entry.startsWith('fresh')),
  );
};

const failedChecks = (outcome: Fixed): string[] =>
  (outcome.checks ?? []).filter((check) => !check.ok).map((check) => check.name);

describe('the fresh check made while the agent works', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);
  // Each job installs for itself: no snapshot of the job's setup, so the early tree runs its own.
  const env = { REGREEN_SETUP_SNAPSHOT: 'off' };

  it('serves a fix that leaves the setup alone: the diff lands on the tree set up while the agent worked', async () => {
    const repo = repoWithInstaller(path.join(temp.dir, 'honest'), []);
    const { outcome } = await fix(
      repo,
      callsScript(temp.dir, 'honest', [
        {
          name: 'edit',
          input: { path: '$WORKSPACE/src/range.js', old: 'n - 1 + bound', new: 'n + bound' },
        },
      ]),
      env,
    );
    expect(outcome.status, JSON.stringify(outcome)).toBe('proposed');
    expect(notes(outcome).join('\n')).toContain('made while the agent worked');
  });

  it('serves it too when the setup also made what a project’s install makes (an editable install’s egg-info, a venv)', async () => {
    // A new user's R4: `pip install -e .` leaves more than node_modules, which made the setup run
    // again after every fix, though the fix touches nothing it read.
    const repo = repoWithInstaller(path.join(temp.dir, 'editable'), [
      "mkdirSync('calc.egg-info', { recursive: true });",
      "writeFileSync('calc.egg-info/PKG-INFO', 'Name: calc\\n');",
      "mkdirSync('.venv/bin', { recursive: true });",
    ]);
    const { outcome } = await fix(
      repo,
      callsScript(temp.dir, 'editable', [
        {
          name: 'edit',
          input: { path: '$WORKSPACE/src/range.js', old: 'n - 1 + bound', new: 'n + bound' },
        },
      ]),
      env,
    );
    expect(outcome.status, JSON.stringify(outcome)).toBe('proposed');
    expect(notes(outcome).join('\n')).toContain('made while the agent worked');
    expect(notes(outcome).join('\n')).not.toContain('the setup runs again after it');
    // What the judged runs held still beyond the tracked files is in the trace.
    expect(notes(outcome).join('\n')).toMatch(/[1-9]\d* entries of [^;]*node_modules[^;]* held/);
  });

  it("begins the fresh check when the agent's run passes, and takes it for that very change", async () => {
    const repo = repoWithInstaller(path.join(temp.dir, 'ahead'), []);
    const { outcome } = await fix(
      repo,
      callsScript(temp.dir, 'ahead', [
        {
          name: 'edit',
          input: { path: '$WORKSPACE/src/range.js', old: 'n - 1 + bound', new: 'n + bound' },
        },
        { name: 'run_tests', input: {} },
      ]),
      env,
    );
    expect(outcome.status, JSON.stringify(outcome)).toBe('proposed');
    const said = notes(outcome).join('\n');
    expect(said).toContain("begun on the change of the agent's passing run (1 file(s))");
    expect(said).toContain('on this very change');
    expect(treesLeft(repo, 'ahead')).toEqual([]);
  });

  it('a change made after the passing run cannot ride on it: the fresh check runs the final change', async () => {
    // The fix passes, the fresh check begins on it; then the agent breaks it again.
    const repo = repoWithInstaller(path.join(temp.dir, 'moved-on'), []);
    const { outcome } = await fix(
      repo,
      callsScript(temp.dir, 'moved-on', [
        {
          name: 'edit',
          input: { path: '$WORKSPACE/src/range.js', old: 'n - 1 + bound', new: 'n + bound' },
        },
        { name: 'run_tests', input: {} },
        {
          name: 'edit',
          input: { path: '$WORKSPACE/src/range.js', old: 'n + bound', new: 'n + 1 + bound' },
        },
      ]),
      env,
    );
    expect(outcome.status, JSON.stringify(outcome)).toBe('diagnosis');
    expect(failedChecks(outcome)).toContain('failing-command-passes');
    const said = notes(outcome).join('\n');
    expect(said).toContain("begun on the change of the agent's passing run");
    expect(said).toContain('the change moved on after the passing run');
    // …onto the spare tree, made from the base while the begun run went on.
    expect(said).toContain('it runs on the spare tree');
    expect(said).toContain('made while the agent worked');
    expect(treesLeft(repo, 'moved-on')).toEqual([]);
  });

  it.each(['off', 'always'])(
    'a fix that also changes the installer the setup command names is refused as a change of the harness: the product fix is judged on the base installer (snapshot %s)',
    async (snapshot) => {
      // The real fix in src/, and an installer that now writes a dependency that throws on import.
      // On the tree set up from the base (or the job's snapshot) it would pass; in a CI that installs it cannot.
      const repo = repoWithInstaller(path.join(temp.dir, `installer-${snapshot}`), []);
      const { outcome } = await fix(
        repo,
        callsScript(temp.dir, `installer-${snapshot}`, [
          {
            name: 'edit',
            input: { path: '$WORKSPACE/src/range.js', old: 'n - 1 + bound', new: 'n + bound' },
          },
          {
            name: 'edit',
            input: {
              path: '$WORKSPACE/install.mjs',
              old: "'export const bound = 0;\\n'",
              new: '\'throw new Error("broken install");\\n\'',
            },
          },
        ]),
        { REGREEN_SETUP_SNAPSHOT: snapshot },
      );
      expect(outcome.status, JSON.stringify(outcome)).toBe('diagnosis');
      // The installer is what the setup runs: harness, quoted in the diagnosis, never applied.
      expect(failedChecks(outcome)).toEqual(['base-harness']);
      expect(JSON.stringify(outcome)).toContain('install.mjs: \\"');
    },
  );

  it('a fix that changes a helper the installer imports gets a setup run after it: the broken install fails the check', async () => {
    // The installer names no helper on the command line: it imports one, which writes the dependency.
    const repo = repoWithInstaller(path.join(temp.dir, 'helper'), [
      "import { body } from './lib/body.mjs';",
    ]);
    writeFileSync(
      path.join(repo, 'install.mjs'),
      readFileSync(path.join(repo, 'install.mjs'), 'utf8').replace(
        "'export const bound = 0;\\n'",
        'body',
      ),
    );
    mkdirSync(path.join(repo, 'lib'));
    writeFileSync(
      path.join(repo, 'lib', 'body.mjs'),
      "export const body = 'export const bound = 0;\\n';\n",
    );
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '--quiet', '-m', 'the installer imports its helper');
    const { outcome } = await fix(
      repo,
      callsScript(temp.dir, 'helper', [
        {
          name: 'edit',
          input: { path: '$WORKSPACE/src/range.js', old: 'n - 1 + bound', new: 'n + bound' },
        },
        {
          name: 'edit',
          input: {
            path: '$WORKSPACE/lib/body.mjs',
            old: "'export const bound = 0;\\n'",
            new: '\'throw new Error("broken install");\\n\'',
          },
        },
      ]),
      env,
    );
    expect(outcome.status, JSON.stringify(outcome)).toBe('diagnosis');
    expect(failedChecks(outcome)).toContain('failing-command-passes');
    expect(notes(outcome).join('\n')).toContain('the setup runs again after it');
  });

  it('a job that ends before its checks stops the early setup and leaves no tree behind', async () => {
    // Only the early tree's setup waits (its folder is `fresh`); the agent changes nothing.
    const repo = repoWithInstaller(path.join(temp.dir, 'early-end'), [
      "if (path.basename(process.cwd()) === 'fresh') await new Promise((r) => setTimeout(r, 600_000));",
    ]);
    const { outcome } = await fix(
      repo,
      callsScript(temp.dir, 'early-end', [], 'I cannot fix this.'),
      env,
    );
    expect(outcome.status, JSON.stringify(outcome)).toBe('diagnosis');
    const jobs = path.join(repo, '..', 'early-end-data', 'jobs');
    for (const job of readdirSync(jobs))
      expect(existsSync(path.join(jobs, job, 'fresh'))).toBe(false);
  });
});
