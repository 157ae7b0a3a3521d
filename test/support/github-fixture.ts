import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOffByOneFixture } from '../../fixtures/build.ts';
import { actionsLog } from '../../fixtures/logs/actions-log.ts';
import type { EmulatedGitHub, RunRecord } from './emulated-github.ts';

export const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

export const WORKFLOW =
  'name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Unit tests\n        run: npm test\n';

/** The off-by-one library with a CI workflow; its real `npm test` output becomes the job log. */
export const buildRedRepo = (dir: string): { sha: string; log: string } => {
  buildOffByOneFixture(dir);
  mkdirSync(path.join(dir, '.github', 'workflows'), { recursive: true });
  writeFileSync(path.join(dir, '.github', 'workflows', 'ci.yml'), WORKFLOW);
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=dev', '-c', 'user.email=dev@example.com', 'commit', '-qm', 'ci');
  const run = spawnSync('npm', ['test'], { cwd: dir, encoding: 'utf8' });
  const log = actionsLog([
    { uses: 'actions/checkout@v4', output: 'Syncing repository' },
    { run: 'npm test', output: `${run.stdout}${run.stderr}`, exitCode: run.status ?? 1 },
  ]);
  return { sha: git(dir, 'rev-parse', 'HEAD'), log };
};

/** A red run of the fixture's workflow on the emulated GitHub: one failed job with its log. */
export const addRedRun = (
  gh: EmulatedGitHub,
  fullName: string,
  red: { sha: string; log: string },
  extra: Partial<Pick<RunRecord, 'head_branch' | 'pull_requests' | 'event'>> = {},
): RunRecord => {
  const run = gh.addRun(fullName, {
    name: 'ci',
    head_sha: red.sha,
    head_branch: 'main',
    event: 'push',
    conclusion: 'failure',
    pull_requests: [],
    ...extra,
  });
  gh.addJob(fullName, {
    run_id: run.id,
    name: 'test',
    conclusion: 'failure',
    head_sha: red.sha,
    steps: [
      { name: 'Set up job', number: 1, conclusion: 'success' },
      { name: 'Run actions/checkout@v4', number: 2, conclusion: 'success' },
      { name: 'Unit tests', number: 3, conclusion: 'failure' },
    ],
    log: red.log,
    logs: 'available',
  });
  return run;
};
