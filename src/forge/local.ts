import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RegreenError, describeError } from '../errors.ts';
import { git, hostGit, type HostRepo } from '../workspace/repo/git.ts';
import { commitProposal, REGREEN_EMAIL } from './commit.ts';
import type { Diagnosed, Diagnosis, Forge, Proposal, Proposed } from './types.ts';

const slug = (value: string): string =>
  value
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(-80) || 'repo';

/**
 * The fix lands as a commit on `regreen/<fingerprint>` in the target
 * repository (only the ref is written: the user's checked-out branch and
 * working tree are never touched), and the PR text is written under the data
 * dir. A URL target keeps the branch in the job's workspace.
 */
export const createLocalForge = (options: {
  target: string;
  localRoot: string | undefined;
  dataDir: string;
}): Forge => ({
  kind: 'local',
  propose: async (proposal: Proposal): Promise<Proposed> => {
    const target = options.localRoot ? git(options.localRoot) : undefined;
    const ref = `refs/heads/${proposal.branch}`;
    // The target's branch is read while the commit is made: neither waits for the other.
    const [commit, branch] = await bothSettled(
      commitProposal(proposal.workspace, proposal.title, proposal.body),
      target ? branchState(target, ref) : Promise.resolve(undefined),
    );
    const updated = branch?.found === ref;
    if (target && branch) {
      if (branch.current === ref) {
        throw new RegreenError(
          'forge',
          `branch ${proposal.branch} is checked out in ${options.localRoot}: switch to another branch and run again`,
        );
      }
      // As on GitHub: a branch whose last commit is a person's (they took the fix on) is theirs now.
      if (updated && branch.email !== REGREEN_EMAIL)
        throw new RegreenError(
          'forge',
          `branch ${proposal.branch} in ${options.localRoot} has a commit that is not regreen's (${branch.sha} by ${branch.email || 'someone'}): regreen leaves it alone. Keep it under another name, or delete it (git branch -D ${proposal.branch}) to let regreen write it again`,
        );
    }
    // The branch written and the patch made at once; the files are written once both are done.
    const [, patch] = await bothSettled(
      target
        ? writeBranch(target, proposal, commit, ref, options.localRoot ?? '')
        : Promise.resolve(),
      // On the workspace's view: the diff reads the worktree's `.gitattributes` (see `stagedDiff`).
      hostGit(
        [
          'format-patch',
          '--stdout',
          '--no-signature',
          // No diff program or text conversion the repository's attributes could name.
          '--no-ext-diff',
          '--no-textconv',
          `${proposal.baseSha}..${commit}`,
        ],
        { cwd: proposal.workspace, noFollow: true },
      ),
    );
    const prTextPath = path.join(proposalsDir(options), `${proposal.fingerprint}.md`);
    writeFileSync(prTextPath, `# ${proposal.title}\n\n${proposal.body}\n`);
    // The fix as a patch beside its text: it outlives the job's workspace (`regreen jobs prune`),
    // and applies to a checkout of a URL target, whose branch only the workspace holds.
    const patchPath = path.join(proposalsDir(options), `${proposal.fingerprint}.patch`);
    writeFileSync(patchPath, patch);
    return {
      branch: proposal.branch,
      prTextPath,
      patchPath,
      ...(options.localRoot ? { repository: options.localRoot } : {}),
      updated,
      commit,
    };
  },
  diagnose: (diagnosis: Diagnosis): Promise<Diagnosed> => {
    const location = path.join(
      proposalsDir(options),
      `${diagnosis.fingerprint ?? 'unknown'}.diagnosis.md`,
    );
    const updated = existsSync(location);
    writeFileSync(location, `# ${diagnosis.title}\n\n${diagnosis.body}\n`);
    return Promise.resolve({ location, updated });
  },
});

const proposalsDir = (options: { target: string; dataDir: string }): string => {
  const dir = path.join(options.dataDir, 'proposals', slug(options.target));
  mkdirSync(dir, { recursive: true });
  return dir;
};

/**
 * Two steps run at once, each awaited to its end (nothing of either still runs
 * in the workspace when the job goes on); the first one's failure is thrown.
 */
const bothSettled = async <A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> => {
  const [first, second] = await Promise.allSettled([a, b]);
  if (first.status === 'rejected') throw first.reason;
  if (second.status === 'rejected') throw second.reason;
  return [first.value, second.value];
};

/**
 * The branch as it stands, read from the ref alone (no log, so no signature
 * check and no program a repository's config could name for it), and the
 * branch the target has checked out.
 */
const branchState = async (
  target: HostRepo,
  ref: string,
): Promise<{ found: string; sha: string; email: string; current: string }> => {
  const [listed, current] = await Promise.all([
    target.raw([
      'for-each-ref',
      '--format=%(refname) %(objectname:short) %(committeremail:trim)',
      ref,
    ]),
    target.raw(['symbolic-ref', '--quiet', 'HEAD']).catch(() => ''),
  ]);
  const [found = '', sha = '', email = ''] = listed.trim().split(' ');
  return { found, sha, email, current: current.trim() };
};

/**
 * The target takes the commit (a fetch it runs under host git's safe
 * settings): a push would run receive-pack in the target with its own config
 * and hooks (husky's, say, which a repository installs), which the safe
 * settings do not reach across a local transport.
 */
const writeBranch = async (
  target: HostRepo,
  proposal: Proposal,
  commit: string,
  ref: string,
  root: string,
): Promise<void> => {
  try {
    await target.raw([
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-recurse-submodules',
      // Not a program the target's config may name for this URL (remote.<url>.uploadpack); run
      // in regreen's workspace, which belongs to the sandbox's uid when regreen is root: the
      // local transport clears the caller's `-c` settings, so it is told it is safe here.
      "--upload-pack=git -c safe.directory='*' upload-pack",
      proposal.workspace,
      `+${commit}:${ref}`,
    ]);
  } catch (error) {
    throw new RegreenError(
      'forge',
      `cannot write branch ${proposal.branch} to ${root}: ${describeError(error)}`,
      { cause: error },
    );
  }
};
