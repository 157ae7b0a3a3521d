import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { knownFiles } from '../../src/workspace/repo/known-files.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-known-');
afterAll(() => temp.cleanup());

const tree = (name: string): string => {
  const dir = path.join(temp.dir, name);
  mkdirSync(path.join(dir, 'src', 'deep'), { recursive: true });
  writeFileSync(path.join(dir, 'src', 'a.ts'), 'a\n');
  writeFileSync(path.join(dir, 'src', 'deep', 'b.ts'), 'b\n');
  writeFileSync(path.join(dir, 'ignored.log'), 'x\n');
  writeFileSync(path.join(dir, '.gitignore'), '*.log\n');
  return dir;
};

describe('knownFiles', () => {
  it('asks git at a repository’s top: tracked and new files, not ignored ones', async () => {
    const dir = tree('repo');
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', 'src/a.ts'], { cwd: dir });
    expect((await knownFiles(dir)).sort()).toEqual(['.gitignore', 'src/a.ts', 'src/deep/b.ts']);
  });

  it('walks a folder that is no repository of its own (a part of one), ignoring nothing git would', async () => {
    const dir = tree('outer');
    execFileSync('git', ['init', '-q'], { cwd: dir });
    expect((await knownFiles(path.join(dir, 'src'))).sort()).toEqual(['a.ts', 'deep/b.ts']);
  });

  it('does not take a `.git` link for a repository: the link is not followed', async () => {
    const dir = tree('linked');
    const elsewhere = path.join(temp.dir, 'elsewhere');
    mkdirSync(elsewhere);
    execFileSync('git', ['init', '-q'], { cwd: elsewhere });
    symlinkSync(path.join(elsewhere, '.git'), path.join(dir, '.git'));
    expect((await knownFiles(dir)).sort()).toEqual([
      '.gitignore',
      'ignored.log',
      'src/a.ts',
      'src/deep/b.ts',
    ]);
  });
});
