import { git, IDENTITY } from '../workspace/repo/git.ts';
import { addAll } from '../workspace/repo/staged.ts';

/** `git commit -m`'s clean-up of a message: no trailing spaces, no blank lines at the ends or in a row. */
const cleanMessage = (message: string): string =>
  `${message
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;

/**
 * Commits everything in the workspace as regreen; returns the commit. By
 * plumbing (`write-tree`, `commit-tree`, `update-ref`), which never reads the
 * worktree: `git commit` runs a status of it when nothing is staged, and that
 * status enters a submodule a `.gitmodules` line says not to ignore (with the
 * planted repository's own filters); no hook can run either.
 */
export const commitProposal = async (
  workspace: string,
  title: string,
  body: string,
): Promise<string> => {
  const repo = git(workspace);
  await addAll(workspace, IDENTITY);
  const tree = (await repo.raw(['write-tree'])).trim();
  const head = (await repo.revparse(['--verify', 'HEAD^{commit}'])).trim();
  if (tree === (await repo.revparse(['--verify', `${head}^{tree}`])).trim())
    throw new Error('nothing to commit: the workspace is its base');
  const commit = (
    await repo.raw([
      ...IDENTITY,
      'commit-tree',
      tree,
      '-p',
      head,
      '-m',
      cleanMessage(`${title}\n\n${body}`),
    ])
  ).trim();
  await repo.raw(['update-ref', '-m', 'commit: regreen', 'HEAD', commit, head]);
  return commit;
};

/** The email regreen commits with: commits by anyone else are a person's. */
export const REGREEN_EMAIL = IDENTITY[3]?.replace('user.email=', '') ?? '';
