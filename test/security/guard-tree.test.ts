/**
 * Holding the base's tests still chowns and chmods files on the host, in a
 * tree whose setup ran repository code. That code may have swapped tracked
 * files and folders for links to host paths: the guard must change nothing
 * outside the tree, whatever the links, and still hold the real files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guardTree } from '../../src/job/stages/guard-tree.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-guard-');
afterAll(() => temp.cleanup());

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
  });

describe('guardTree and links the setup planted', () => {
  it('changes no host file a planted link points at, and holds the real ones', () => {
    const tree = path.join(temp.dir, 'tree');
    const outside = path.join(temp.dir, 'outside');
    mkdirSync(path.join(tree, 'tests'), { recursive: true });
    mkdirSync(path.join(tree, 'spec'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    for (const file of ['tests/test_a.py', 'conftest.py', 'spec/keep.py', 'calc.py'])
      writeFileSync(path.join(tree, file), 'x = 1\n');
    git(tree, 'init', '-q');
    git(tree, 'add', '-A');
    git(tree, 'commit', '-qm', 'base');
    // What a hostile setup leaves: a tracked folder and a tracked file swapped for links out.
    writeFileSync(path.join(outside, 'test_a.py'), 'host\n', { mode: 0o644 });
    writeFileSync(path.join(outside, 'victim'), 'host\n', { mode: 0o644 });
    rmSync(path.join(tree, 'tests'), { recursive: true });
    symlinkSync(outside, path.join(tree, 'tests'));
    rmSync(path.join(tree, 'conftest.py'));
    symlinkSync(path.join(outside, 'victim'), path.join(tree, 'conftest.py'));
    const before = [outside, path.join(outside, 'test_a.py'), path.join(outside, 'victim')].map(
      (file) => statSync(file),
    );

    const guard = guardTree(tree, new Set(['calc.py']));

    const after = [outside, path.join(outside, 'test_a.py'), path.join(outside, 'victim')].map(
      (file) => statSync(file),
    );
    after.forEach((stats, index) => {
      expect(stats.uid).toBe(before[index]?.uid);
      expect(stats.mode).toBe(before[index]?.mode);
    });
    // Made before the runs, the swaps are the setup's: the comparison counts what the runs change.
    expect(guard.changed()).toEqual([]);
    if (guard.enforced) {
      const kept = statSync(path.join(tree, 'spec', 'keep.py'));
      expect(kept.uid).toBe(65_534);
      expect(kept.mode & 0o222).toBe(0);
      expect(statSync(path.join(tree, 'calc.py')).uid).toBe(0);
    }
  });
});
