import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { branchState, createLocalForge, writeBranch } from '../../src/forge/local.ts';
import { git } from '../../src/workspace/repo/git.ts';
import { stagedTree } from '../support/staged-tree.ts';
import { makeTempDir } from '../support/tmp.ts';

const REGREEN = {
  GIT_AUTHOR_NAME: 'regreen',
  GIT_AUTHOR_EMAIL: 'regreen@users.noreply.invalid',
  GIT_COMMITTER_NAME: 'regreen',
  GIT_COMMITTER_EMAIL: 'regreen@users.noreply.invalid',
};
const PERSON = {
  GIT_AUTHOR_NAME: 'dev',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'dev',
  GIT_COMMITTER_EMAIL: 'dev@example.com',
};

const run = (cwd: string, args: string[], env: Record<string, string> = {}): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } }).trim();

/**
 * A person's commit on regreen's branch while regreen writes it (an attacker's
 * finding: the branch was checked, then written with a forced fetch, so a
 * commit made in between was overwritten). The branch now moves only from the
 * commit regreen checked.
 */
describe("the local forge's branch write", () => {
  const temp = makeTempDir('regreen-forge-race-');
  afterAll(() => temp.cleanup());

  /** The target with regreen's branch on one commit, and a workspace with the next proposal. */
  const setUp = (name: string): { target: string; workspace: string; proposal: string } => {
    const target = path.join(temp.dir, name, 'target');
    run(temp.dir, ['init', '-q', '-b', 'main', target]);
    writeFileSync(path.join(target, 'a.txt'), 'a\n');
    run(target, ['add', '.']);
    run(target, ['commit', '-q', '-m', 'base'], PERSON);
    run(target, ['commit', '-q', '--allow-empty', '-m', 'regreen 1'], REGREEN);
    run(target, ['branch', 'regreen/fp']);
    run(target, ['reset', '-q', '--hard', 'HEAD~1']);
    const workspace = path.join(temp.dir, name, 'workspace');
    run(temp.dir, ['clone', '-q', target, workspace]);
    run(workspace, ['checkout', '-q', '-B', 'regreen/fp', 'origin/regreen/fp']);
    run(workspace, ['commit', '-q', '--allow-empty', '-m', 'regreen 2'], REGREEN);
    return { target, workspace, proposal: run(workspace, ['rev-parse', 'HEAD']) };
  };

  const proposalOf = (workspace: string, tree = ''): Parameters<typeof writeBranch>[1] => ({
    workspace,
    baseSha: '',
    tree,
    branch: 'regreen/fp',
    fingerprint: 'fp',
    title: 't',
    body: 'b',
  });

  /** A person takes the branch on: a commit of theirs on it, from a worktree then removed. */
  const personCommits = (target: string): string => {
    const worktree = path.join(path.dirname(target), 'person');
    run(target, ['worktree', 'add', '-q', worktree, 'regreen/fp']);
    run(worktree, ['commit', '-q', '--allow-empty', '-m', 'my work on the fix'], PERSON);
    run(target, ['worktree', 'remove', '--force', worktree]);
    return run(target, ['rev-parse', 'regreen/fp']);
  };

  it('moves the branch from the commit it checked, and keeps no ref of its own', async () => {
    const { target, workspace, proposal } = setUp('plain');
    const state = await branchState(git(target), 'refs/heads/regreen/fp');
    await writeBranch(git(target), proposalOf(workspace), proposal, state, target);
    expect(run(target, ['rev-parse', 'regreen/fp'])).toBe(proposal);
    // Stored under no ref of regreen's: nothing is left in the person's repository if it dies.
    expect(run(target, ['for-each-ref', 'refs/regreen'])).toBe('');
    expect(existsSync(path.join(target, '.git', 'refs', 'regreen'))).toBe(false);
  });

  it("a person's commit made after the check stays theirs: the write is refused", async () => {
    const { target, workspace, proposal } = setUp('race');
    const state = await branchState(git(target), 'refs/heads/regreen/fp');
    expect(state.email).toBe('regreen@users.noreply.invalid');
    const theirs = personCommits(target);
    await expect(
      writeBranch(git(target), proposalOf(workspace), proposal, state, target),
    ).rejects.toThrow(/changed while regreen wrote it .* regreen leaves it alone/);
    expect(run(target, ['rev-parse', 'regreen/fp'])).toBe(theirs);
    expect(run(target, ['for-each-ref', 'refs/regreen'])).toBe('');
  });

  it('a branch made after the check found none is not overwritten', async () => {
    const { target, workspace, proposal } = setUp('absent');
    run(target, ['branch', '-D', 'regreen/fp']);
    const state = await branchState(git(target), 'refs/heads/regreen/fp');
    expect(state.sha).toBeUndefined();
    run(target, ['branch', 'regreen/fp', 'main']);
    const theirs = run(target, ['rev-parse', 'regreen/fp']);
    await expect(
      writeBranch(git(target), proposalOf(workspace), proposal, state, target),
    ).rejects.toThrow(/changed while regreen wrote it/);
    expect(run(target, ['rev-parse', 'regreen/fp'])).toBe(theirs);
  });

  it('a branch checked out after the check, in a linked worktree, is refused as before', async () => {
    const { target, workspace, proposal } = setUp('checkout');
    const state = await branchState(git(target), 'refs/heads/regreen/fp');
    const before = run(target, ['rev-parse', 'regreen/fp']);
    run(target, ['worktree', 'add', '-q', path.join(path.dirname(target), 'wt'), 'regreen/fp']);
    await expect(
      writeBranch(git(target), proposalOf(workspace), proposal, state, target),
    ).rejects.toThrow(/is checked out in/);
    expect(run(target, ['rev-parse', 'regreen/fp'])).toBe(before);
    expect((await branchState(git(target), 'refs/heads/regreen/fp')).checkedOut).toContain(
      'refs/heads/regreen/fp',
    );
  });

  // A second attacker's findings: git holds a branch it is rebasing or bisecting (HEAD detached,
  // no `branch` line in `worktree list`), and a link at regreen's branch name led the write elsewhere.
  it('a branch being rebased after the check is not moved under the rebase', async () => {
    const { target, workspace, proposal } = setUp('rebase');
    const state = await branchState(git(target), 'refs/heads/regreen/fp');
    const before = run(target, ['rev-parse', 'regreen/fp']);
    run(target, ['rebase', '-q', '-i', 'HEAD', 'regreen/fp'], {
      GIT_SEQUENCE_EDITOR: "sed -i 's/^pick/edit/'",
    });
    expect(run(target, ['worktree', 'list', '--porcelain'])).toContain('detached');
    await expect(
      writeBranch(git(target), proposalOf(workspace), proposal, state, target),
    ).rejects.toThrow(/is checked out in/);
    expect(run(target, ['rev-parse', 'regreen/fp'])).toBe(before);
    run(target, ['rebase', '--abort']);
  });

  it('a branch being bisected after the check is not moved', async () => {
    const { target, workspace, proposal } = setUp('bisect');
    const state = await branchState(git(target), 'refs/heads/regreen/fp');
    const before = run(target, ['rev-parse', 'regreen/fp']);
    // Bisecting from the branch: git holds it while HEAD is detached on the commits tried.
    run(target, ['checkout', '-q', 'regreen/fp']);
    run(target, ['bisect', 'start', 'HEAD', 'main']);
    run(target, ['checkout', '-q', '--detach', 'main']);
    await expect(
      writeBranch(git(target), proposalOf(workspace), proposal, state, target),
    ).rejects.toThrow(/is checked out in/);
    expect(run(target, ['rev-parse', 'regreen/fp'])).toBe(before);
    run(target, ['bisect', 'reset']);
  });

  it("a link at regreen's branch name is refused: nothing it names is written", async () => {
    const { target, workspace } = setUp('symref');
    run(target, ['branch', '-D', 'regreen/fp']);
    run(target, ['symbolic-ref', 'refs/heads/regreen/fp', 'refs/heads/main']);
    const main = run(target, ['rev-parse', 'main']);
    writeFileSync(path.join(workspace, 'b.txt'), 'b\n');
    const forge = createLocalForge({
      target,
      localRoot: target,
      dataDir: path.join(temp.dir, 'symref', 'data'),
    });
    await expect(
      forge.propose({
        ...proposalOf(workspace, await stagedTree(workspace)),
        baseSha: run(workspace, ['rev-parse', 'HEAD']),
      }),
    ).rejects.toThrow(/is a link to refs\/heads\/main/);
    expect(run(target, ['rev-parse', 'main'])).toBe(main);
    expect(run(target, ['symbolic-ref', 'refs/heads/regreen/fp'])).toBe('refs/heads/main');
  });

  it("the target's config cannot turn the write into a program: only a local transport is allowed", async () => {
    // Found reviewing the change: `url.<base>.insteadOf` in the target's config rewrote the
    // workspace's path into an ssh URL, and its `core.sshCommand` ran as regreen's user.
    const { target, workspace, proposal } = setUp('transport');
    const marker = path.join(temp.dir, 'transport', 'ran');
    run(target, ['config', 'url.ssh://evil.invalid/x.insteadOf', workspace]);
    run(target, ['config', 'url.ssh://evil.invalid/y.insteadOf', '.']);
    run(target, ['config', 'core.sshCommand', `touch ${marker}; false`]);
    const state = await branchState(git(target), 'refs/heads/regreen/fp');
    const before = run(target, ['rev-parse', 'regreen/fp']);
    await expect(
      writeBranch(git(target), proposalOf(workspace), proposal, state, target),
    ).rejects.toThrow(/cannot write branch/);
    expect(existsSync(marker)).toBe(false);
    expect(run(target, ['rev-parse', 'regreen/fp'])).toBe(before);
  });
});
