import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitIn, makeRepo } from '../../fixtures/build.ts';
import {
  diffsOfStaged,
  stageChange,
  workspaceDiff,
  workspaceDiffs,
} from '../../src/workspace/repo/staged.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('workspaceDiff through an index of the caller', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  it("reads the same change and leaves the workspace's own index as the agent left it", async () => {
    const repo = makeRepo(path.join(temp.dir, 'repo'), { 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    writeFileSync(path.join(repo, 'a.txt'), 'one, changed\n');
    writeFileSync(path.join(repo, 'new.txt'), 'new\n');
    const before = gitIn(repo, 'status', '--porcelain');
    // Beside the workspace, in a folder of its own (git's view of the workspace binds that folder).
    mkdirSync(path.join(temp.dir, 'index'));
    const index = path.join(temp.dir, 'index', 'own.index');

    const read = await workspaceDiff(repo, base, index);

    expect(read).toContain('+one, changed');
    expect(read).toContain('new file mode');
    // Nothing staged in the workspace: the agent's `git status` reads as it did.
    expect(gitIn(repo, 'status', '--porcelain')).toBe(before);
    expect(before).toMatch(/^ M a\.txt$/m);
    // The checks' own read, through the workspace's index, is the same text.
    expect(await workspaceDiff(repo, base)).toBe(read);
  });

  it('reads each change as it is now, whatever was read before (the diff is kept by staged tree)', async () => {
    const repo = makeRepo(path.join(temp.dir, 'again'), { 'a.txt': 'one\n' });
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    writeFileSync(path.join(repo, 'a.txt'), 'first change\n');
    const first = await workspaceDiff(repo, base);
    expect(await workspaceDiff(repo, base)).toBe(first);
    writeFileSync(path.join(repo, 'a.txt'), 'second change\n');
    const second = await workspaceDiff(repo, base);
    expect(second).toContain('+second change');
    expect(second).not.toContain('first change');
    // Back to the first content: the first change again, not the last one read.
    writeFileSync(path.join(repo, 'a.txt'), 'first change\n');
    expect(await workspaceDiff(repo, base)).toBe(first);
    // Nothing changed any more: an empty change.
    writeFileSync(path.join(repo, 'a.txt'), 'one\n');
    expect(await workspaceDiff(repo, base)).toBe('');
  });

  it("reads the checks' text beside the applied diff, for the change as it is now (a renamed binary file is text, unpaired)", async () => {
    const repo = makeRepo(path.join(temp.dir, 'both'), {
      'a.txt': 'one\n',
      'data.bin': 'head\0tail\n',
    });
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    writeFileSync(path.join(repo, 'a.txt'), 'first\n');
    gitIn(repo, 'mv', 'data.bin', 'moved.bin');
    // The applied diff read first and kept: the checks' text is still read, for the same tree.
    const applied = await workspaceDiff(repo, base);
    const both = await workspaceDiffs(repo, base);
    expect(both.applied).toBe(applied);
    expect(applied).toContain('rename from data.bin');
    expect(both.checks).toContain('deleted file mode');
    expect(both.checks).toContain('+++ b/moved.bin');
    expect(both.checks).toContain('+head\0tail');
    expect(both.checks).toBe(
      gitIn(
        repo,
        '-c',
        'core.quotePath=false',
        'diff',
        '--cached',
        '--text',
        '--no-renames',
        '--no-color',
        base,
        '--',
      ),
    );
    // The change moves on: both texts are of the new one.
    writeFileSync(path.join(repo, 'a.txt'), 'second\n');
    const after = await workspaceDiffs(repo, base);
    expect(after.checks).toContain('+second');
    expect(after.checks).not.toContain('+first');
    expect(after.applied).toContain('+second');
  });

  it('a change once staged is what its diffs say, whatever the worktree does before they are read', async () => {
    const repo = makeRepo(path.join(temp.dir, 'staged'), { 'a.txt': 'one\n' });
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    writeFileSync(path.join(repo, 'a.txt'), 'passed\n');
    mkdirSync(path.join(temp.dir, 'staged-index'));
    const staged = await stageChange(repo, base, path.join(temp.dir, 'staged-index', 'index'));
    // The agent goes on: another content, a new file, before the diffs are read.
    writeFileSync(path.join(repo, 'a.txt'), 'moved on\n');
    writeFileSync(path.join(repo, 'b.txt'), 'new\n');
    const [first, second] = await Promise.all([
      diffsOfStaged(staged, true),
      diffsOfStaged(staged, false),
    ]);
    expect(first.applied).toBe(second.applied);
    expect(first.applied).toContain('+passed');
    expect(first.checks).toContain('+passed');
    for (const text of [first.applied, first.checks]) {
      expect(text).not.toContain('moved on');
      expect(text).not.toContain('b.txt');
    }
    // The workspace read now is the later change.
    expect(await workspaceDiff(repo, base)).toContain('+moved on');
  });
});
