import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RegreenError, describeError } from '../errors.ts';
import { git, hostGit } from '../workspace/repo/git.ts';
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
    const commit = await commitProposal(proposal.workspace, proposal.title, proposal.body);
    let updated = false;
    if (options.localRoot) {
      const target = git(options.localRoot);
      const ref = `refs/heads/${proposal.branch}`;
      // The branch as it stands, read from the ref alone: no log, so no signature check and no
      // program a repository's config could name for it.
      const [found, sha = '', email = ''] = (
        await target.raw([
          'for-each-ref',
          '--format=%(refname) %(objectname:short) %(committeremail:trim)',
          ref,
        ])
      )
        .trim()
        .split(' ');
      updated = found === ref;
      const current = (
        await target.raw(['symbolic-ref', '--quiet', 'HEAD']).catch(() => '')
      ).trim();
      if (current === ref) {
        throw new RegreenError(
          'forge',
          `branch ${proposal.branch} is checked out in ${options.localRoot}: switch to another branch and run again`,
        );
      }
      // As on GitHub: a branch whose last commit is a person's (they took the fix on) is theirs now.
      if (updated && email !== REGREEN_EMAIL)
        throw new RegreenError(
          'forge',
          `branch ${proposal.branch} in ${options.localRoot} has a commit that is not regreen's (${sha} by ${email || 'someone'}): regreen leaves it alone. Keep it under another name, or delete it (git branch -D ${proposal.branch}) to let regreen write it again`,
        );
      try {
        // The target takes the commit (a fetch it runs under host git's safe settings): a push would
        // run receive-pack in the target with its own config and hooks (husky's, say, which a
        // repository installs), which the safe settings do not reach across a local transport.
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
          `cannot write branch ${proposal.branch} to ${options.localRoot}: ${describeError(error)}`,
          { cause: error },
        );
      }
    }
    const prTextPath = path.join(proposalsDir(options), `${proposal.fingerprint}.md`);
    writeFileSync(prTextPath, `# ${proposal.title}\n\n${proposal.body}\n`);
    // The fix as a patch beside its text: it outlives the job's workspace (`regreen jobs prune`),
    // and applies to a checkout of a URL target, whose branch only the workspace holds.
    const patchPath = path.join(proposalsDir(options), `${proposal.fingerprint}.patch`);
    writeFileSync(
      patchPath,
      // On the workspace's view: the diff reads the worktree's `.gitattributes` (see `stagedDiff`).
      await hostGit(
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
