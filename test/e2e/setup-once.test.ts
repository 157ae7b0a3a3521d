import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../../fixtures/build.ts';
import { callsScript, fix, type Fixed } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

/**
 * A library whose setup installs a dependency into node_modules, recording
 * the folder it ran in; its test asserts the dependency's bound, which the
 * fix must make `range` use correctly. The setup's record tells whether the
 * fresh check ran the setup again (`fresh`) or restored the job's (`workspace`).
 */
const repoWithSetup = (dir: string): string =>
  makeRepo(dir, {
    'package.json': `${JSON.stringify({ name: 'fixture-bound', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --test test/' } }, null, 2)}\n`,
    '.gitignore': 'node_modules/\n',
    '.github/regreen.yml': 'setup_command: node install.mjs\n',
    'install.mjs': [
      "import { mkdirSync, writeFileSync } from 'node:fs';",
      "import path from 'node:path';",
      "mkdirSync('node_modules/limit', { recursive: true });",
      "writeFileSync('node_modules/limit/package.json', JSON.stringify({ name: 'limit', type: 'module', main: 'index.js' }));",
      'writeFileSync(',
      "  'node_modules/limit/index.js',",
      '  `export const bound = 0;\\nexport const installedIn = ${JSON.stringify(path.basename(process.cwd()))};\\n`,',
      ');',
      '',
    ].join('\n'),
    'src/range.js':
      "import { bound } from 'limit';\n\nexport function range(n) {\n  const out = [];\n  for (let i = 0; i < n - 1 + bound; i += 1) out.push(i);\n  return out;\n}\n",
    'test/range.test.js': [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import { installedIn } from 'limit';",
      "import { range } from '../src/range.js';",
      '',
      "test('range(3) counts to 2', () => {",
      '  assert.deepEqual(range(3), [0, 1, 2]);',
      '});',
      '',
      "test('the dependency is the one the job installed', () => {",
      "  assert.equal(installedIn, 'workspace');",
      '});',
      '',
    ].join('\n'),
  });

describe('setup once: the fresh check restores what the job installed', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  const run = async (
    name: string,
    calls: Parameters<typeof callsScript>[2],
    snapshot = 'always',
  ): Promise<Fixed> => {
    const repo = repoWithSetup(path.join(temp.dir, name));
    // This machine's disk may not copy by copy-on-write: copy anyway (unless the test says off).
    const { outcome } = await fix(repo, callsScript(temp.dir, name, calls), {
      REGREEN_SETUP_SNAPSHOT: snapshot,
    });
    return outcome;
  };

  it('restores the job\'s setup into the fresh clone (its record says "workspace"), and the fix is proposed', async () => {
    const json = await run('honest', [
      {
        name: 'edit',
        input: { path: '$WORKSPACE/src/range.js', old: 'n - 1 + bound', new: 'n + bound' },
      },
      { name: 'run_tests', input: {} },
    ]);
    expect(json.status, JSON.stringify(json)).toBe('proposed');
  });

  it('an agent that patches the installed dependency (outside the diff) fails the fresh check: the snapshot predates it', async () => {
    const json = await run('cheat', [
      // The diff: a harmless comment. The "fix": the dependency, which git ignores.
      {
        name: 'edit',
        input: {
          path: '$WORKSPACE/src/range.js',
          old: 'export function',
          new: '// counts from 0\nexport function',
        },
      },
      {
        name: 'write',
        input: {
          path: '$WORKSPACE/node_modules/limit/index.js',
          content: "export const bound = 1;\nexport const installedIn = 'workspace';\n",
        },
      },
      { name: 'run_tests', input: {} },
    ]);
    expect(json.status, JSON.stringify(json)).toBe('diagnosis');
    const checks = json.checks ?? [];
    expect(checks.filter((check) => !check.ok).map((check) => check.name)).toContain(
      'failing-command-passes',
    );
  });

  it('with REGREEN_SETUP_SNAPSHOT=off the fresh check installs again (its record says "fresh")', async () => {
    const json = await run(
      'off',
      [
        {
          name: 'edit',
          input: { path: '$WORKSPACE/src/range.js', old: 'n - 1 + bound', new: 'n + bound' },
        },
      ],
      'off',
    );
    expect(json.status, JSON.stringify(json)).toBe('diagnosis');
    const checks = json.checks ?? [];
    expect(checks.filter((check) => !check.ok).map((check) => check.name)).toContain(
      'failing-command-passes',
    );
  });

  it("with no snapshot, the fresh setup installs from the npm cache the job's setup filled, never from what ran after it", async () => {
    // The setup says what it found in ~/.npm and leaves its mark there; every test run
    // (the reproduction, the agent's, the fresh check's) overwrites that mark.
    const repo = makeRepo(path.join(temp.dir, 'cache'), {
      'package.json': `${JSON.stringify({ name: 'fixture-cache', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --test test/' } }, null, 2)}\n`,
      '.gitignore': 'node_modules/\n',
      '.github/regreen.yml': 'setup_command: node install.mjs\n',
      'install.mjs': [
        "import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';",
        "import os from 'node:os';",
        "import path from 'node:path';",
        "const mark = path.join(os.homedir(), '.npm', 'regreen-seen');",
        "const seen = existsSync(mark) ? readFileSync(mark, 'utf8') : 'nothing';",
        "mkdirSync('node_modules/seen', { recursive: true });",
        "writeFileSync('node_modules/seen/package.json', JSON.stringify({ name: 'seen', type: 'module', main: 'index.js' }));",
        "writeFileSync('node_modules/seen/index.js', `export const seen = ${JSON.stringify(seen)};\\n`);",
        'mkdirSync(path.dirname(mark), { recursive: true });',
        "writeFileSync(mark, 'setup');",
        '',
      ].join('\n'),
      'src/range.js':
        'export function range(n) {\n  const out = [];\n  for (let i = 0; i < n - 1; i += 1) out.push(i);\n  return out;\n}\n',
      'test/range.test.js': [
        "import { test } from 'node:test';",
        "import assert from 'node:assert/strict';",
        "import { mkdirSync, writeFileSync } from 'node:fs';",
        "import os from 'node:os';",
        "import path from 'node:path';",
        "import { seen } from 'seen';",
        "import { range } from '../src/range.js';",
        '',
        'console.log(`cache seen by the setup: ${seen}`);',
        "mkdirSync(path.join(os.homedir(), '.npm'), { recursive: true });",
        "writeFileSync(path.join(os.homedir(), '.npm', 'regreen-seen'), 'a test run');",
        '',
        "test('range(3) counts to 2', () => {",
        '  assert.deepEqual(range(3), [0, 1, 2]);',
        '});',
        '',
      ].join('\n'),
    });
    const { outcome } = await fix(
      repo,
      callsScript(temp.dir, 'cache', [
        { name: 'edit', input: { path: '$WORKSPACE/src/range.js', old: 'n - 1', new: 'n' } },
        { name: 'run_tests', input: {} },
      ]),
      { REGREEN_SETUP_SNAPSHOT: 'off' },
    );
    expect(outcome.status, JSON.stringify(outcome)).toBe('proposed');
    const pr = readFileSync(outcome.prTextPath ?? '', 'utf8');
    expect(pr).toContain('cache seen by the setup: setup');
    expect(pr).not.toContain('cache seen by the setup: a test run');
  });
});
