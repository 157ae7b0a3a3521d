import { describeError, RegreenError } from '../../errors.ts';
import { neutralTextOf, selfLogin, type GitHubClient } from './client.ts';
import { parseMarker, withMarker } from './markers.ts';
import type { Logger } from '../../logger.ts';
import { redactSecrets } from '../../util/secrets.ts';
import { gitRemote, httpAuthEnv, type GitAuthEnv } from '../../workspace/repo/git-remote.ts';
import { commitProposal, REGREEN_EMAIL } from '../commit.ts';
import type { Diagnosed, Diagnosis, Forge, Proposal, Proposed } from '../types.ts';

/** Where a failure happened on GitHub, and where regreen answers. */
export interface GitHubTarget {
  readonly owner: string;
  readonly repo: string;
  /** The failing branch: the fix's pull request is opened against it. */
  readonly branch: string;
  readonly headSha: string;
  /** The failing pull request (same repository), when the failure is on one. */
  readonly pullNumber?: number;
  /** The HTTPS clone URL. */
  readonly cloneUrl: string;
  /**
   * The failing pull request comes from a fork (`owner/repo`), which regreen
   * cannot push to: the fix goes on regreen's branch in this repository, in a
   * pull request into the fork pull request's base branch.
   */
  readonly fork?: { readonly repo: string; readonly baseBranch: string };
}

/** How many push attempts race a branch that moves under regreen. */
const PUSH_ATTEMPTS = 2;

/** The label of a draft pull request a person must confirm (its title says so too). */
export const NEEDS_PERSON_LABEL = 'regreen: needs a person';

/**
 * The GitHub forge: code pushes `regreen/<fingerprint>` and opens (or
 * updates) the pull request; the model never holds the token. The token is
 * handed to host-side git through the environment of one process and is
 * scrubbed from every text regreen writes.
 */
export interface GitHubForgeOptions {
  readonly client: GitHubClient;
  readonly target: GitHubTarget;
  readonly token: () => Promise<string>;
  readonly logger: Logger;
}

export const createGitHubForge = (options: GitHubForgeOptions): Forge => {
  const { client, target, logger } = options;
  const repoArgs = { owner: target.owner, repo: target.repo };
  const auth = async (): Promise<GitAuthEnv> =>
    httpAuthEnv(target.cloneUrl, 'x-access-token', await options.token());
  const neutral = neutralTextOf(client);
  // The commit's text too: it goes by git, not through the client's request hook.
  const scrub = async (text: string): Promise<string> => {
    const token = await options.token();
    return neutral(redactSecrets(text).replaceAll(token, '***'));
  };

  /** The branch's head on GitHub, and whether a person committed on it. */
  const remoteBranch = async (
    workspace: string,
    branch: string,
    baseSha: string,
    env: GitAuthEnv,
  ): Promise<{ sha: string | undefined; personCommitted: boolean }> => {
    const listed = await gitRemote(['ls-remote', '--', 'origin', `refs/heads/${branch}`], {
      cwd: workspace,
      auth: env,
    });
    const sha = listed.split(/\s+/)[0] || undefined;
    if (!sha) return { sha: undefined, personCommitted: false };
    await gitRemote(
      ['fetch', '--quiet', '--', 'origin', `+refs/heads/${branch}:refs/regreen/remote`],
      {
        cwd: workspace,
        auth: env,
      },
    );
    // Commits only this branch has (not the base, not any other branch): a person's, unless regreen's.
    const authors = await gitRemote(
      [
        'log',
        '--format=%ae%x09%ce',
        'refs/regreen/remote',
        '--not',
        baseSha,
        '--exclude=origin/regreen/*',
        '--remotes=origin',
      ],
      { cwd: workspace },
    );
    const personCommitted = authors
      .split('\n')
      .filter(Boolean)
      .some((line) => line.split('\t').some((email) => email !== REGREEN_EMAIL));
    return { sha, personCommitted };
  };

  const push = async (proposal: Proposal, env: GitAuthEnv): Promise<boolean> => {
    for (let attempt = 1; attempt <= PUSH_ATTEMPTS; attempt += 1) {
      const remote = await remoteBranch(proposal.workspace, proposal.branch, proposal.baseSha, env);
      if (remote.personCommitted) {
        throw new RegreenError(
          'forge-refused',
          `a person has pushed to ${proposal.branch}: regreen no longer touches that branch`,
        );
      }
      try {
        // The lease: overwrite only regreen's own commit, as last seen; never a person's.
        await gitRemote(
          [
            'push',
            '--quiet',
            '--no-verify',
            `--force-with-lease=refs/heads/${proposal.branch}:${remote.sha ?? ''}`,
            'origin',
            `HEAD:refs/heads/${proposal.branch}`,
          ],
          { cwd: proposal.workspace, auth: env },
        );
        return remote.sha !== undefined;
      } catch (error) {
        if (attempt === PUSH_ATTEMPTS) throw error;
        logger.warn({ branch: proposal.branch }, 'push rejected: the branch moved; checking again');
      }
    }
    return false;
  };

  return {
    kind: 'github',
    gitAuth: auth,
    propose: async (proposal: Proposal): Promise<Proposed> => {
      const commit = await commitProposal(
        proposal,
        await scrub(proposal.title),
        await scrub(proposal.body),
      );
      const env = await auth();
      const branchExisted = await push(proposal, env);
      const { data: open } = await client.rest.pulls.list({
        ...repoArgs,
        state: 'open',
        head: `${target.owner}:${proposal.branch}`,
      });
      const existing = open[0];
      const attempts = (parseMarker(existing?.body)?.attempts ?? 0) + 1;
      const body = withMarker(await scrub(proposal.body), {
        kind: 'pr',
        fingerprint: proposal.fingerprint,
        attempts,
      });
      const title = await scrub(proposal.title);
      if (existing) {
        const { data } = await client.rest.pulls.update({
          ...repoArgs,
          pull_number: existing.number,
          title,
          body,
        });
        // regreen's own draft (opened early to ask a question) becomes the fix's pull request;
        // a change a person must confirm stays a draft.
        if (existing.draft && !proposal.draft)
          await client
            .graphql(
              'mutation($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } } }',
              { id: existing.node_id },
            )
            .catch((error: unknown) =>
              logger.warn(
                { pull: existing.number, err: describeError(error) },
                'the fix is on the draft pull request, which could not be marked ready',
              ),
            );
        return { branch: proposal.branch, url: data.html_url, updated: true, commit };
      }
      const { data } = await client.rest.pulls.create({
        ...repoArgs,
        head: proposal.branch,
        base: target.fork ? target.fork.baseBranch : target.branch,
        title,
        body: target.fork
          ? `${body}\n\n> This fixes #${target.pullNumber ?? '?'}, which comes from the fork ${target.fork.repo}: regreen cannot push there, so this pull request carries that pull request's commits and the fix. Merge it instead, or the author can pull \`${proposal.branch}\` into their branch.`
          : body,
        maintainer_can_modify: true,
        ...(proposal.draft ? { draft: true } : {}),
      });
      if (proposal.draft)
        await client.rest.issues
          .addLabels({ ...repoArgs, issue_number: data.number, labels: [NEEDS_PERSON_LABEL] })
          .catch((error: unknown) =>
            logger.warn(
              { pull: data.number, err: describeError(error) },
              'the draft could not be labelled as needing a person',
            ),
          );
      return { branch: proposal.branch, url: data.html_url, updated: branchExisted, commit };
    },
    diagnose: async (diagnosis: Diagnosis): Promise<Diagnosed> => {
      const fingerprint = diagnosis.fingerprint ?? '000000';
      const previous = await findDiagnosis(client, target, fingerprint);
      const body = withMarker(await scrub(`### ${diagnosis.title}\n\n${diagnosis.body}`), {
        kind: 'diagnosis',
        fingerprint,
        attempts: (previous?.attempts ?? 0) + 1,
      });
      if (previous) {
        const { data } = target.pullNumber
          ? await client.rest.issues.updateComment({ ...repoArgs, comment_id: previous.id, body })
          : await client.rest.repos.updateCommitComment({
              ...repoArgs,
              comment_id: previous.id,
              body,
            });
        return { location: data.html_url, updated: true };
      }
      const { data } = target.pullNumber
        ? await client.rest.issues.createComment({
            ...repoArgs,
            issue_number: target.pullNumber,
            body,
          })
        : await client.rest.repos.createCommitComment({
            ...repoArgs,
            commit_sha: target.headSha,
            body,
          });
      return { location: data.html_url, updated: false };
    },
  };
};

/** regreen's diagnosis comment for a fingerprint on the target (PR or commit), if any. */
export const findDiagnosis = async (
  client: GitHubClient,
  target: GitHubTarget,
  fingerprint: string,
): Promise<{ id: number; attempts: number } | undefined> => {
  const repoArgs = { owner: target.owner, repo: target.repo };
  const comments = target.pullNumber
    ? await client.paginate(client.rest.issues.listComments, {
        ...repoArgs,
        issue_number: target.pullNumber,
        per_page: 100,
      })
    : await client.paginate(client.rest.repos.listCommentsForCommit, {
        ...repoArgs,
        commit_sha: target.headSha,
        per_page: 100,
      });
  const self = await selfLogin(client);
  for (const comment of comments) {
    // Only regreen's own comments count: a bot's, or those of the person whose token it uses.
    if (comment.user?.type !== 'Bot' && (self === undefined || comment.user?.login !== self))
      continue;
    const marker = parseMarker(comment.body);
    if (marker?.kind === 'diagnosis' && marker.fingerprint === fingerprint)
      return { id: comment.id, attempts: marker.attempts };
  }
  return undefined;
};
