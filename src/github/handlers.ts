import type { Context, Probot } from 'probot';
import { describeError } from '../errors.ts';
import type { GitHubTarget } from '../forge/github/forge.ts';
import { parseFailureEvent } from '../intake/github-events.ts';
import type { Logger } from '../logger.ts';
import type { JobQueue } from '../queue/types.ts';
import type { SuspendedJob } from '../store/types.ts';
import { parseMarker } from '../forge/github/markers.ts';
import { hasWriteAccess, type GitHubClient } from '../forge/github/client.ts';
import { fixSpec, STOP_MARKERS, stoppedOn, triageSpec } from './processor.ts';
import { repoAllowed, type Guards } from './run-failure.ts';

export interface AppOptions {
  /** Where webhooks put work: in this process (memory) or for workers (BullMQ). */
  readonly queue: JobQueue;
  readonly guards: Guards;
  readonly logger: Logger;
  /** A REST client authenticated as the App's installation (with throttling and retry). */
  readonly clientFor: (installationId: number) => GitHubClient;
  /** Jobs waiting for an answer: a comment on their pull request resumes them. */
  readonly suspended?: {
    onPull(owner: string, repo: string, pullNumber: number): SuspendedJob[];
    /** Takes a waiting job off the store and queues its resumption (exactly once). */
    resume(job: SuspendedJob, why: string): void;
  };
}

const { STOPPED, RESUMED } = STOP_MARKERS;

/**
 * The GitHub App: red builds (`workflow_run`, `check_suite`) and maintainer
 * commands (`/regreen fix`, `/regreen stop`). A webhook is answered at once:
 * the handlers only enqueue; triage and jobs run from the queue.
 */
export const regreenApp =
  (options: AppOptions) =>
  (app: Probot): void => {
    const { queue, logger } = options;

    const enqueue = (spec: Parameters<JobQueue['enqueue']>[0]): void => {
      void queue
        .enqueue(spec)
        .then((added) => {
          if (!added) logger.info({ key: spec.key }, 'already queued or done');
        })
        .catch((error: unknown) =>
          logger.error({ err: describeError(error), key: spec.key }, 'cannot enqueue'),
        );
    };

    const onFailure =
      (name: string) =>
      (context: Context): void => {
        const parsed = parseFailureEvent(name, context.payload);
        if (parsed.kind === 'ignored') {
          logger.info({ delivery: context.id }, parsed.why);
          return;
        }
        const allowed = repoAllowed(
          options.guards,
          parsed.build.target.owner,
          parsed.build.target.repo,
        );
        if (!allowed.ok) {
          logger.info({ delivery: context.id }, allowed.why);
          return;
        }
        if (parsed.build.installationId === undefined) {
          logger.info({ delivery: context.id }, 'no installation in the payload');
          return;
        }
        const { target, source } = parsed.build;
        enqueue(triageSpec(parsed.build.installationId, { target, source }));
      };

    /** Only a person with write access steers regreen; anyone else is logged and ignored. */
    const fromWriter = async (
      client: GitHubClient,
      target: GitHubTarget,
      login: string,
      what: string,
      delivery: string,
    ): Promise<boolean> => {
      if (await hasWriteAccess(client, target, login)) return true;
      logger.info({ user: login, delivery }, `${what} ignored: no write access`);
      return false;
    };

    app.on('workflow_run.completed', onFailure('workflow_run'));
    app.on('check_suite.completed', onFailure('check_suite'));

    app.on('issue_comment.created', async (context) => {
      const { comment, issue, repository } = context.payload;
      const command = /^\/regreen\s+(fix|stop)\b/.exec(comment.body.trim())?.[1];
      const user = comment.user;
      if (!command && issue.pull_request && user && user.type !== 'Bot' && options.suspended) {
        // Perhaps an answer: every job waiting on this pull request looks at its card again.
        for (const waiting of options.suspended.onPull(
          repository.owner.login,
          repository.name,
          issue.number,
        ))
          options.suspended.resume(waiting, `comment ${comment.id}`);
        return;
      }
      if (!command || !issue.pull_request || !user || user.type === 'Bot') return;
      const installationId = context.payload.installation?.id;
      if (installationId === undefined) return;
      const client = options.clientFor(installationId);
      const base = {
        owner: repository.owner.login,
        repo: repository.name,
        cloneUrl: repository.clone_url,
      };
      const { data: pull } = await client.rest.pulls.get({
        owner: base.owner,
        repo: base.repo,
        pull_number: issue.number,
      });
      const headRepo = pull.head.repo?.full_name;
      const target: GitHubTarget = {
        ...base,
        branch: pull.head.ref,
        headSha: pull.head.sha,
        pullNumber: issue.number,
        // A fork's pull request: a maintainer asked, so regreen works on it, and proposes here.
        ...(headRepo && headRepo.toLowerCase() !== `${base.owner}/${base.repo}`.toLowerCase()
          ? { fork: { repo: headRepo, baseBranch: pull.base.ref } }
          : {}),
      };
      if (!(await fromWriter(client, target, user.login, `/regreen ${command}`, context.id)))
        return;
      await client.rest.reactions
        .createForIssueComment({
          owner: base.owner,
          repo: base.repo,
          comment_id: comment.id,
          content: 'eyes',
        })
        .catch((error: unknown) => logger.warn({ err: describeError(error) }, 'reaction failed'));
      if (command === 'stop') {
        await client.rest.issues.createComment({
          owner: base.owner,
          repo: base.repo,
          issue_number: issue.number,
          body: `regreen stops working on this pull request (asked by @${user.login}). \`/regreen fix\` resumes.\n\n${STOPPED}`,
        });
        return;
      }
      if (await stoppedOn(client, target)) {
        await client.rest.issues.createComment({
          owner: base.owner,
          repo: base.repo,
          issue_number: issue.number,
          body: `regreen resumes on this pull request (asked by @${user.login}).\n\n${RESUMED}`,
        });
      }
      const runs = await client.paginate(client.rest.actions.listWorkflowRunsForRepo, {
        owner: base.owner,
        repo: base.repo,
        head_sha: pull.head.sha,
        status: 'failure',
        per_page: 100,
      });
      if (runs.length === 0) {
        await client.rest.issues.createComment({
          owner: base.owner,
          repo: base.repo,
          issue_number: issue.number,
          body: `regreen found no failed workflow run for ${pull.head.sha.slice(0, 12)}: nothing to fix.`,
        });
        return;
      }
      for (const run of runs)
        enqueue(
          triageSpec(
            installationId,
            { target, source: { kind: 'run', runId: run.id } },
            comment.id,
          ),
        );
    });

    app.on('pull_request_review_comment.created', async (context) => {
      const { comment, pull_request: pull, repository } = context.payload;
      const user = comment.user;
      const installationId = context.payload.installation?.id;
      if (!pull.head.ref.startsWith('regreen/') || !user || user.type === 'Bot') return;
      if (installationId === undefined || pull.state !== 'open') return;
      const client = options.clientFor(installationId);
      const target: GitHubTarget = {
        owner: repository.owner.login,
        repo: repository.name,
        cloneUrl: repository.clone_url,
        branch: pull.base.ref,
        headSha: pull.head.sha,
        pullNumber: pull.number,
      };
      if (!(await fromWriter(client, target, user.login, 'review comment', context.id))) return;
      const fingerprint =
        parseMarker(pull.body)?.fingerprint ?? pull.head.ref.slice('regreen/'.length);
      const where = `${comment.path}${comment.line ? `:${comment.line}` : ''}`;
      enqueue(
        fixSpec({
          installationId,
          target,
          report: {
            repo: target.cloneUrl,
            ref: pull.head.sha,
            trigger: 'app',
            fingerprint,
            task: { text: `On ${where}:\n${comment.body}`, author: user.login },
          },
          key: `${target.owner}/${target.repo}#${fingerprint}@${pull.head.sha} review ${comment.id}`,
          force: true,
        }),
      );
    });
  };
