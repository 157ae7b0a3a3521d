import type { GitHubTarget } from '../forge/github/forge.ts';
import { REGREEN_EMAIL } from '../forge/commit.ts';
import type { GitHubClient } from '../forge/github/client.ts';
import type { Logger } from '../logger.ts';
import type { QuestionChannel, WaitClock } from './channel.ts';
import { githubQuestionChannel } from './github.ts';

/**
 * Questions about a failure that is not on a pull request (a push to a
 * branch): regreen opens its own draft pull request for the fingerprint early
 * — the branch `regreen/<fingerprint>` with one empty commit on the failing
 * one, made through the git data API — and asks there. The fix is later
 * pushed to that branch and the same pull request is made ready for review.
 */
export const draftPullChannel = (options: {
  client: GitHubClient;
  target: GitHubTarget;
  fingerprint: string;
  selfLogin: () => Promise<string | undefined>;
  logger: Logger;
  clock?: WaitClock;
}): QuestionChannel => {
  const { client, target, fingerprint } = options;
  const repoArgs = { owner: target.owner, repo: target.repo };
  const branch = `regreen/${fingerprint}`;
  let inner: Promise<QuestionChannel> | undefined;

  const open = async (): Promise<QuestionChannel> => {
    const { data: listed } = await client.rest.pulls.list({
      ...repoArgs,
      state: 'open',
      head: `${target.owner}:${branch}`,
    });
    let pullNumber = listed[0]?.number;
    if (pullNumber === undefined) {
      const { data: base } = await client.rest.git.getCommit({
        ...repoArgs,
        commit_sha: target.headSha,
      });
      const { data: commit } = await client.rest.git.createCommit({
        ...repoArgs,
        message: `regreen: working on ${fingerprint}`,
        tree: base.tree.sha,
        parents: [target.headSha],
        author: { name: 'regreen', email: REGREEN_EMAIL },
      });
      await client.rest.git
        .createRef({ ...repoArgs, ref: `refs/heads/${branch}`, sha: commit.sha })
        .catch((error: unknown) => {
          // The branch is there from an earlier attempt: regreen's own, the pull request goes on it.
          if ((error as { status?: number }).status !== 422) throw error;
        });
      const { data: pull } = await client.rest.pulls.create({
        ...repoArgs,
        head: branch,
        base: target.branch,
        draft: true,
        title: `regreen: working on the failure ${fingerprint}`,
        body: `regreen is working on a failure of \`${target.branch}\` at ${target.headSha.slice(0, 12)} and has a question below. This draft becomes the fix's pull request.`,
      });
      pullNumber = pull.number;
    }
    return githubQuestionChannel({
      client,
      owner: target.owner,
      repo: target.repo,
      pullNumber,
      selfLogin: options.selfLogin,
      logger: options.logger,
      ...(options.clock ? { clock: options.clock } : {}),
    });
  };
  const channel = (): Promise<QuestionChannel> => {
    inner ??= open().catch((error: unknown) => {
      inner = undefined;
      throw error;
    });
    return inner;
  };
  return {
    kind: 'github',
    open: async (id, question, timeoutMinutes) =>
      (await channel()).open(id, question, timeoutMinutes),
    wait: async (id, question, deadline, signal) =>
      (await channel()).wait(id, question, deadline, signal),
    close: async (id, question, answer) => (await channel()).close(id, question, answer),
  };
};
