import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOffByOneFixture, trajectory } from '../../fixtures/build.ts';
import { runCli, runJson } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const gitOut = (dir: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

/** Every ref, the index and HEAD of a repository: what a run that writes nothing leaves as it was. */
const repoState = (dir: string): string =>
  [
    gitOut(dir, 'for-each-ref'),
    gitOut(dir, 'rev-parse', 'HEAD'),
    gitOut(dir, 'status', '--porcelain', '--untracked-files=all'),
  ].join('\n');

describe('regreen fix --dry-run, through the CLI', () => {
  const temp = makeTempDir();
  const repo = path.join(temp.dir, 'range');
  const dataDir = path.join(temp.dir, 'data');
  beforeAll(() => buildOffByOneFixture(repo));
  afterAll(temp.cleanup);

  const args = [
    'fix',
    '--dry-run',
    '--repo',
    repo,
    '--model',
    `script:${trajectory('off-by-one-fix')}`,
    '--data-dir',
    dataDir,
  ];

  it('with --json: the patch and the PR text in the object, no branch and no proposal file written', async () => {
    const before = repoState(repo);
    const { code, json } = await runJson(args);
    expect(json.status, JSON.stringify(json)).toBe('proposed');
    expect(code).toBe(0);
    expect(json.dryRun).toBe(true);
    expect(repoState(repo)).toBe(before);
    expect(gitOut(repo, 'branch', '--list', 'regreen/*')).toBe('');
    expect(json.prTextPath).toBeUndefined();
    expect(json.patchPath).toBeUndefined();
    expect(existsSync(path.join(dataDir, 'proposals'))).toBe(false);
    expect(String(json.prText)).toMatch(/\S/);
    // The patch is the fix: it applies to a clean checkout and makes the change.
    const patch = String(json.patch);
    expect(patch).toContain('i < n;');
    const checkout = path.join(temp.dir, 'checkout');
    execFileSync('git', ['clone', '--quiet', repo, checkout]);
    execFileSync('git', ['apply'], { cwd: checkout, input: patch });
    expect(readFileSync(path.join(checkout, 'src', 'range.js'), 'utf8')).toContain('i < n;');
  });

  it('as text: the summary, then the PR text and the patch in full', async () => {
    const before = repoState(repo);
    const { code, stdout } = await runCli(args);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/^proposed \(dry run: no branch, nothing written\): /);
    expect(stdout).toMatch(/without --dry-run the branch would be regreen\/[0-9a-f]{12}/);
    expect(stdout).not.toMatch(/^branch: /m);
    const [, prText = '', patch = ''] = stdout.split(/^--- (?:PR text|patch) ---$/m);
    expect(prText.trim()).toMatch(/^# \S/);
    expect(patch).toMatch(/^diff --git a\/src\/range\.js b\/src\/range\.js$/m);
    expect(repoState(repo)).toBe(before);
  });
});
