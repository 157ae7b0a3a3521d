import { IDENTITY } from '../workspace/repo/git.ts';
import { addAll, commitStaged } from '../workspace/repo/staged.ts';

/** Commits everything in the workspace as regreen (by plumbing: `commitStaged`); returns the commit. */
export const commitProposal = async (
  workspace: string,
  title: string,
  body: string,
): Promise<string> => {
  await addAll(workspace, IDENTITY);
  return commitStaged(workspace, `${title}\n\n${body}`);
};

/** The email regreen commits with: commits by anyone else are a person's. */
export const REGREEN_EMAIL = IDENTITY[3]?.replace('user.email=', '') ?? '';
