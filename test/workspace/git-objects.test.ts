import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitIn, makeRepo } from '../../fixtures/build.ts';
import { hostGitObjectSync } from '../../src/workspace/repo/git-objects.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('hostGitObjectSync: reads a full id fixes, asked of git once', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  it('answers a second read of a commit from memory, and asks again what a branch name or a failed read names', () => {
    const repo = makeRepo(path.join(temp.dir, 'repo'), { 'a.txt': 'one\n' });
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    const show = (id: string): string =>
      hostGitObjectSync(['show', `${id}:a.txt`], id, { cwd: repo }).toString('utf8');
    expect(show(base)).toBe('one\n');
    const listing = hostGitObjectSync(['ls-tree', '-r', '--name-only', '-z', base], base, {
      cwd: repo,
    }).toString('utf8');
    expect(listing).toBe('a.txt\0');
    expect(() => show(base.slice(0, 12))).not.toThrow();
    expect(() => hostGitObjectSync(['show', `${base}:absent.txt`], base, { cwd: repo })).toThrow();

    // With the objects gone, only what was asked by full id and answered is still known.
    rmSync(path.join(repo, '.git', 'objects'), { recursive: true, force: true });
    expect(show(base)).toBe('one\n');
    expect(
      hostGitObjectSync(['ls-tree', '-r', '--name-only', '-z', base], base, {
        cwd: repo,
      }).toString('utf8'),
    ).toBe('a.txt\0');
    expect(() => show(base.slice(0, 12))).toThrow();
    expect(() => hostGitObjectSync(['show', `${base}:absent.txt`], base, { cwd: repo })).toThrow();
    // The same read in another repository is that repository's own question.
    const other = makeRepo(path.join(temp.dir, 'other'), { 'a.txt': 'one\n' });
    rmSync(path.join(other, '.git', 'objects'), { recursive: true, force: true });
    expect(() => hostGitObjectSync(['show', `${base}:a.txt`], base, { cwd: other })).toThrow();
  });
});
