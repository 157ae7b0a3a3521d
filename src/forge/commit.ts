import { IDENTITY } from '../workspace/repo/git.ts';
import { commitTree } from '../workspace/repo/staged.ts';
import type { Proposal } from './types.ts';

/**
 * Commits the proposal's tree, the change its checks read, as regreen (by
 * plumbing: `commitTree`); returns the commit. The worktree is not read again:
 * what is proposed is what was checked.
 */
export const commitProposal = (
  proposal: Pick<Proposal, 'workspace' | 'tree'>,
  title: string,
  body: string,
): Promise<string> => commitTree(proposal.workspace, proposal.tree, `${title}\n\n${body}`);

/** The email regreen commits with: commits by anyone else are a person's. */
export const REGREEN_EMAIL = IDENTITY[3]?.replace('user.email=', '') ?? '';
