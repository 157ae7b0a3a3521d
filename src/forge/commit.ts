import { git, IDENTITY } from '../workspace/repo/git.ts';
import { addAll } from '../workspace/repo/staged.ts';

/** Commits everything in the workspace as regreen (hooks never run); returns the commit. */
export const commitProposal = async (
  workspace: string,
  title: string,
  body: string,
): Promise<string> => {
  const repo = git(workspace);
  await addAll(workspace, IDENTITY);
  await repo.raw([...IDENTITY, 'commit', '--quiet', '--no-verify', '-m', `${title}\n\n${body}`]);
  return (await repo.revparse(['HEAD'])).trim();
};

/** The email regreen commits with: commits by anyone else are a person's. */
export const REGREEN_EMAIL = IDENTITY[3]?.replace('user.email=', '') ?? '';
