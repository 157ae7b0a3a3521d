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
): Promise<string> => commitTree(proposal.workspace, proposal.tree, commitMessage(title, body));

const WIDTH = 72;
const MAX_LINES = 6;

/**
 * A commit message as git users write one: the title, then the pull request
 * text's first paragraph wrapped at 72 columns (at most six lines). The
 * checks, the runner's output and the rest stay in the pull request, not in
 * the repository's history for good.
 */
export const commitMessage = (title: string, body: string): string => {
  const first = body.trim().split(/\n\s*\n/)[0] ?? '';
  const lines: string[] = [];
  let line = '';
  for (const word of first.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  const kept = lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES - 1), '…'] : lines;
  const oneLine = title.split('\n')[0] ?? '';
  return kept.length > 0 ? `${oneLine}\n\n${kept.join('\n')}\n` : `${oneLine}\n`;
};

/** The email regreen commits with: commits by anyone else are a person's. */
export const REGREEN_EMAIL = IDENTITY[3]?.replace('user.email=', '') ?? '';
