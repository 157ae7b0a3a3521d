import { hostGit, IDENTITY } from '../../src/workspace/repo/git.ts';
import { addAll } from '../../src/workspace/repo/staged.ts';

/**
 * The workspace's change staged whole, as one tree id: what a job's checks
 * read and its proposal commits (a test that proposes without a job).
 */
export const stagedTree = async (workspace: string): Promise<string> => {
  await addAll(workspace, IDENTITY);
  return (await hostGit(['write-tree'], { cwd: workspace })).trim();
};
