import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RegreenError, describeError } from '../errors.ts';
import { git, hostGit, type HostRepo } from '../workspace/repo/git.ts';
import type { RepoCredential } from '../workspace/repo/repo-url.ts';
import { commitProposal, REGREEN_EMAIL } from './commit.ts';
import type { Diagnosed, Diagnosis, Forge, Proposal, Proposed } from './types.ts';

const slug = (value: string): string =>
  value
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|(?<!-)-+$/g, '')
    .slice(-80) || 'repo';

/**
 * The fix lands as a commit on `regreen/<fingerprint>` in the target
 * repository (only the ref is written: the user's checked-out branch and
 * working tree are never touched), and the PR text is written under the data
 * dir. A URL target keeps the branch in the job's workspace.
 */
export const createLocalForge = ({
  credential,
  ...options
}: {
  /** The folder, or the URL without credentials (`RepoSource.location`): it names the proposals folder. */
  target: string;
  localRoot: string | undefined;
  dataDir: string;
  /** What a URL target carried for git (see `splitRepoUrl`): host git's clone of it receives it. */
  credential?: RepoCredential | undefined;
  /**
   * `regreen fix --dry-run`: the fix is committed in the job's workspace only;
   * no branch, no file under the data dir. The patch comes back to be printed.
   */
  dryRun?: boolean;
}): Forge => ({
  kind: 'local',
  ...(credential ? { gitAuth: () => Promise.resolve(credential.gitAuth(options.target)) } : {}),
  propose: async (proposal: Proposal): Promise<Proposed> => {
    if (options.dryRun) {
      const commit = await commitProposal(proposal, proposal.title, proposal.body);
      const patch = await formatPatch(proposal, commit);
      return { branch: proposal.branch, patch, dryRun: true, updated: false, commit };
    }
    const target = options.localRoot ? git(options.localRoot) : undefined;
    const ref = `refs/heads/${proposal.branch}`;
    // The branch is read while the commit is made: its write moves it only from what was read.
    const [commit, branch] = await bothSettled(
      commitProposal(proposal, proposal.title, proposal.body),
      target ? branchState(target, ref) : Promise.resolve(undefined),
    );
    const updated = branch?.sha !== undefined;
    if (branch) refuseBranch(branch, proposal.branch, options.localRoot ?? '');
    // The branch written and the patch made at once; the files are written once both are done.
    const [, patch] = await bothSettled(
      target && branch
        ? writeBranch(target, proposal, commit, branch, options.localRoot ?? '')
        : Promise.resolve(),
      formatPatch(proposal, commit),
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

/** The commit as a patch, made on the workspace's view: the diff reads its `.gitattributes` (see `stagedDiff`). */
const formatPatch = (proposal: Proposal, commit: string): Promise<string> =>
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
  );

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

/** The target's branch as regreen found it, and the branches its worktrees have checked out. */
interface BranchState {
  readonly ref: string;
  /** Its commit (the whole id), when the branch exists. */
  readonly sha: string | undefined;
  /** What it links to, when it is a symbolic ref (regreen writes only a branch of its own). */
  readonly symref: string;
  readonly email: string;
  readonly checkedOut: readonly string[];
}

/** The branches the target's worktrees (its own and any linked one) have checked out. */
const checkedOut = async (target: HostRepo): Promise<string[]> =>
  (await target.raw(['worktree', 'list', '--porcelain']))
    .split('\n')
    .filter((line) => line.startsWith('branch '))
    .map((line) => line.slice('branch '.length));

/**
 * The branch as it stands, read from the ref alone (no log, so no signature
 * check and no program a repository's config could name for it), and what
 * the target's worktrees have checked out.
 */
export const branchState = async (target: HostRepo, ref: string): Promise<BranchState> => {
  const [listed, worktrees] = await Promise.all([
    target.raw([
      'for-each-ref',
      '--format=%(refname)%00%(symref)%00%(objectname)%00%(committeremail:trim)',
      ref,
    ]),
    checkedOut(target),
  ]);
  const [found = '', symref = '', sha = '', email = ''] = listed.trim().split('\0');
  return {
    ref,
    sha: found === ref ? sha : undefined,
    symref: found === ref ? symref : '',
    email,
    checkedOut: worktrees,
  };
};

const checkedOutError = (name: string, root: string): RegreenError =>
  new RegreenError(
    'forge',
    `branch ${name} is checked out in ${root}: switch to another branch and run again`,
  );

/** The names regreen gives its branches: `regreen/` (`regreen/draft/` for a draft) and an id (a fingerprint), nothing else. */
const OWN_BRANCH = /^regreen\/(?:draft\/)?[A-Za-z0-9_-]+$/;

/** Refuses a branch regreen may not write: not one of its names, a link, checked out, or a person's. */
const refuseBranch = (branch: BranchState, name: string, root: string): void => {
  if (!OWN_BRANCH.test(name))
    throw new RegreenError('forge', `not a branch name of regreen's: ${JSON.stringify(name)}`);
  if (branch.symref)
    throw new RegreenError(
      'forge',
      `branch ${name} in ${root} is a link to ${branch.symref}: regreen writes only a branch of its own; delete it (git symbolic-ref -d refs/heads/${name}) to let regreen write it`,
    );
  if (branch.checkedOut.includes(branch.ref)) throw checkedOutError(name, root);
  // As on GitHub: a branch whose last commit is a person's (they took the fix on) is theirs now.
  if (branch.sha !== undefined && branch.email !== REGREEN_EMAIL)
    throw new RegreenError(
      'forge',
      `branch ${name} in ${root} has a commit that is not regreen's (${branch.sha.slice(0, 12)} by ${branch.email || 'someone'}): regreen leaves it alone. Keep it under another name, or delete it (git branch -D ${name}) to let regreen write it again`,
    );
};

/** The upload-pack a local fetch runs: never a program the repository's config may name. */
const UPLOAD_PACK = "--upload-pack=git -c safe.directory='*' upload-pack";

/**
 * The only transport the target's fetches may use: a local one. The target's
 * config may rewrite any URL (`url.<base>.insteadOf`) into one whose transport
 * runs a program it names (`core.sshCommand`, a remote helper); none is allowed.
 */
const LOCAL_ONLY = ['-c', 'protocol.allow=never', '-c', 'protocol.file.allow=always'];

/**
 * Whether git itself holds the branch still: checked out in a worktree, or
 * being rebased or bisected in one. Asked of git, not of a list of its
 * states: a fetch of the branch onto itself (not forced: it never changes the
 * branch), which git refuses in exactly those cases.
 */
const heldByGit = async (target: HostRepo, branch: BranchState): Promise<boolean> => {
  const asked = async (): Promise<boolean> => {
    if (branch.sha === undefined) return false;
    try {
      await target.raw([
        ...LOCAL_ONLY,
        'fetch',
        '--quiet',
        '--no-tags',
        '--no-write-fetch-head',
        '--no-recurse-submodules',
        UPLOAD_PACK,
        '.',
        `${branch.ref}:${branch.ref}`,
      ]);
      return false;
    } catch (error) {
      if (/refusing to fetch into branch/.test(describeError(error))) return true;
      throw error;
    }
  };
  // Both at once (neither changes anything): an unborn branch checked out shows only in the list.
  const [listed, refused] = await bothSettled(checkedOut(target), asked());
  return listed.includes(branch.ref) || refused;
};

/**
 * Writes the branch: the target takes the commit (a fetch it runs under host
 * git's safe settings, its objects checked: a push would run receive-pack in
 * the target with its own config and hooks, husky's say, which the safe
 * settings do not reach across a local transport), stored under no ref, then
 * the branch is moved onto it only from the commit regreen checked (none:
 * only while it is still absent), and only while git holds it nowhere. A
 * person's commit made meanwhile stays theirs.
 */
export const writeBranch = async (
  target: HostRepo,
  proposal: Proposal,
  commit: string,
  branch: BranchState,
  root: string,
): Promise<void> => {
  try {
    await target.raw([
      ...LOCAL_ONLY,
      '-c',
      'fetch.fsckObjects=true',
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-recurse-submodules',
      // Not a program the target's config may name for this URL (remote.<url>.uploadpack); run
      // in regreen's workspace, which belongs to the sandbox's uid when regreen is root: the
      // local transport clears the caller's `-c` settings, so it is told it is safe here.
      UPLOAD_PACK,
      proposal.workspace,
      commit,
    ]);
    // A fetch into a branch git holds is refused by git; a ref update is not, so git is asked.
    if (await heldByGit(target, branch)) throw checkedOutError(proposal.branch, root);
    await target
      .raw([
        'update-ref',
        '--no-deref',
        '-m',
        'regreen: propose',
        branch.ref,
        commit,
        branch.sha ?? '0'.repeat(commit.length),
      ])
      .catch((error: unknown) => {
        throw new RegreenError(
          'forge',
          `branch ${proposal.branch} in ${root} changed while regreen wrote it (${describeError(error)}): regreen leaves it alone; run again to write it anew`,
          { cause: error },
        );
      });
  } catch (error) {
    if (error instanceof RegreenError) throw error;
    throw new RegreenError(
      'forge',
      `cannot write branch ${proposal.branch} to ${root}: ${describeError(error)}`,
      { cause: error },
    );
  }
};
