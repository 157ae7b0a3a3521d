import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitIn, makeRepo } from '../../fixtures/build.ts';
import { CHANGE_FILE, keepChange } from '../../src/job/stages/scratch.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('what a job keeps as its change when it ends', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  it('a job that proposed keeps the change it proposed, whatever its worktree holds by then', async () => {
    const repo = makeRepo(path.join(temp.dir, 'proposed'), { 'a.txt': 'one\n' });
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    writeFileSync(path.join(repo, 'a.txt'), 'after the proposal\n');
    const proposed =
      'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n';
    await keepChange({ dir: temp.dir, proposed: { change: proposed } }, repo, base);
    expect(readFileSync(path.join(temp.dir, CHANGE_FILE), 'utf8')).toBe(proposed);
  });

  it('any other job keeps its workspace against the base, as it is at the end', async () => {
    const repo = makeRepo(path.join(temp.dir, 'other'), { 'a.txt': 'one\n' });
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    writeFileSync(path.join(repo, 'a.txt'), 'tried\n');
    const dir = path.join(temp.dir, 'other-job');
    mkdirSync(dir);
    await keepChange({ dir, proposed: {} }, repo, base);
    expect(readFileSync(path.join(dir, CHANGE_FILE), 'utf8')).toContain('+tried');
  });
});
