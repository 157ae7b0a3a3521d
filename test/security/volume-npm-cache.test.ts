import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPrettierFixture, makeRepo } from '../../fixtures/build.ts';
import { runCli } from '../support/cli.ts';
import { callsScript, fix } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const isRoot = process.geteuid?.() === 0;

/**
 * ATTACK (functional break of the volume): every setup that leaves ~/.npm
 * (any `npm ci`/`npm install`) has keepSetupCaches rename the sandbox's
 * ~/.npm — now on the job's loop-mounted volume — into the job's folder on
 * the data dir's file system. rename(2) across file systems is EXDEV: the
 * job dies as an internal error right after a successful setup.
 */
describe.runIf(isRoot)('a job whose setup leaves ~/.npm, on the volume', () => {
  const temp = makeTempDir('regreen-h-npmcache-');
  afterAll(temp.cleanup);
  const repo = makeRepo(path.join(temp.dir, 'calc'), {
    'package.json': `${JSON.stringify({ name: 'fixture-range', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --test test/' } }, null, 2)}\n`,
    '.gitignore': 'node_modules/\n',
    // What every npm install leaves behind: a cache folder in the home.
    '.github/regreen.yml': 'setup_command: mkdir -p "$HOME/.npm/_cacache/index-v5" node_modules\n',
    'src/range.js':
      'export function range(n) {\n  const out = [];\n  for (let i = 0; i < n - 1; i += 1) out.push(i);\n  return out;\n}\n',
    'test/range.test.js': [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import { range } from '../src/range.js';",
      "test('range(3) counts to 2', () => assert.deepEqual(range(3), [0, 1, 2]));",
      '',
    ].join('\n'),
  });

  const run = (volume: 'auto' | 'off') =>
    fix(
      repo,
      callsScript(temp.dir, `s-${volume}`, [
        { name: 'edit', input: { path: '$WORKSPACE/src/range.js', old: 'n - 1', new: 'n' } },
        { name: 'run_tests', input: {} },
      ]),
      { REGREEN_JOB_VOLUME: volume, REGREEN_MAX_DISK_MB: '128', REGREEN_SETUP_SNAPSHOT: 'off' },
    );

  it('without the volume: proposed', async () => {
    const result = await run('off');
    expect(result.outcome.status, JSON.stringify(result.outcome)).toBe('proposed');
  }, 300_000);

  it('with the volume: the same job should be proposed too (a cross-device rename failed it: EXDEV)', async () => {
    const result = await run('auto');
    const trace = result.outcome.tracePath ? readFileSync(result.outcome.tracePath, 'utf8') : '';
    expect(trace).toMatch(/volume of their own/);
    expect(result.outcome.status, JSON.stringify(result.outcome)).toBe('proposed');
  }, 300_000);

  it('a real `npm ci` (the e2e prettier fixture, fixed by a recipe, no model) on the volume (a cross-device rename failed it: EXDEV)', async () => {
    const repo = buildPrettierFixture(path.join(temp.dir, 'prettier'));
    const args = (data: string) => [
      'fix',
      '--repo',
      repo,
      '--command',
      'npm run format:check',
      '--data-dir',
      data,
      '--json',
    ];
    const off = await runCli(args(path.join(temp.dir, 'p-off')), { REGREEN_JOB_VOLUME: 'off' });
    expect((JSON.parse(off.stdout) as { status: string }).status).toBe('proposed');
    const on = await runCli(args(path.join(temp.dir, 'p-on')), {
      REGREEN_JOB_VOLUME: 'auto',
      REGREEN_MAX_DISK_MB: '512',
    });
    expect(JSON.parse(on.stdout), on.stderr).toMatchObject({ status: 'proposed' });
  }, 600_000);
});
