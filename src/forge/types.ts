import type { GitAuthEnv } from '../workspace/repo/git-remote.ts';

/** What a job proposes: a commit on a branch and the text of a pull request. */
export interface Proposal {
  /** The job's workspace, where the fix is committed. */
  readonly workspace: string;
  readonly baseSha: string;
  /**
   * The change as the checks read it: the tree staged from the workspace (an id
   * in its objects). It is what is committed, not the worktree as it is by then.
   */
  readonly tree: string;
  readonly branch: string;
  readonly fingerprint: string;
  readonly title: string;
  readonly body: string;
  /** A change a person must confirm: a draft pull request (GitHub), a draft branch (local). */
  readonly draft?: boolean;
}

export interface Proposed {
  readonly branch: string;
  /** Where the PR text was written (local) or the PR's address (github). */
  readonly prTextPath?: string;
  /** The fix as a patch (local): it outlives the job's workspace. */
  readonly patchPath?: string;
  /** The local repository the branch was written to (local, when the target is one). */
  readonly repository?: string;
  readonly url?: string;
  /** A dry run (local): nothing written, no branch; the fix as a patch, to be printed. */
  readonly dryRun?: boolean;
  readonly patch?: string;
  /** True when an earlier proposal for the same failure was updated. */
  readonly updated: boolean;
  readonly commit: string;
}

/** Why a job proposes nothing, told where the failure is (a PR comment on GitHub). */
export interface Diagnosis {
  readonly fingerprint: string | undefined;
  readonly title: string;
  readonly body: string;
}

export interface Diagnosed {
  /** Where the diagnosis can be read: a comment's address, or a file. */
  readonly location: string;
  readonly updated: boolean;
}

/** The port to where fixes land. */
export interface Forge {
  readonly kind: 'local' | 'github';
  propose(proposal: Proposal): Promise<Proposed>;
  /** Reports a job that found no acceptable fix; one report per failure, updated in place. */
  diagnose(diagnosis: Diagnosis): Promise<Diagnosed>;
  /** Credentials for cloning the repository, passed to host-side git only. */
  gitAuth?(): Promise<GitAuthEnv>;
}
