import type { Context, Probot } from 'probot';
import { describeError } from '../errors.ts';
import { createGitHubForge, type GitHubTarget } from '../forge/github.ts';
import { parseFailureEvent, type RedBuild } from '../intake/github-events.ts';
import type { FailureReport } from '../intake/failure-report.ts';
import type { JobDeps, Progress } from '../job/deps.ts';
import type { Forge } from '../forge/types.ts';
import type { Logger } from '../logger.ts';
import type { MemoryQueue } from '../queue/memory.ts';
import { parseMarker } from './markers.ts';
import { clientToken, type GitHubClient } from './client.ts';
import {
  reportUnavailableLogs,
  repoAllowed,
  runFailure,
  triageBuild,
  type FailureResult,
  type Guards,
} from './run-failure.ts';

export interface AppOptions {
  readonly queue: MemoryQueue;
  readonly guards: Guards;
  readonly deps: (forge: Forge, progress: Progress) => JobDeps;
  readonly logger: Logger;
  readonly now: () => number;
  /** A REST client authenticated as the App's installation (with throttling and retry). */
  readonly clientFor: (installationId: number) => GitHubClient;
  /** Called with each job's result (logs, metrics, tests). */
  readonly onResult?: (key: string, result: FailureResult) => void;
}

const STOPPED = '<!-- regreen:stopped -->';
const RESUMED = '<!-- regreen:resumed -->';
const WRITE = new Set(['admin', 'maintain', 'write']);

/** Whether a person may command regreen on the repository (write access). */
const canWrite = async (client: GitHubClient, target: GitHubTarget, login: string) => {
  const { data } = await client.rest.repos.getCollaboratorPermissionLevel({
    owner: target.owner,
    repo: target.repo,
    username: login,
  });
  return WRITE.has(data.permission) || WRITE.has(data.role_name);
};

/** Whether a maintainer told regreen to stop on this pull request (and did not resume it). */
const stoppedOn = async (client: GitHubClient, target: GitHubTarget): Promise<boolean> => {
  if (!target.pullNumber) return false;
  const comments = await client.paginate(client.rest.issues.listComments, {
    owner: target.owner,
    repo: target.repo,
    issue_number: target.pullNumber,
    per_page: 100,
  });
  const last = comments
    .filter(
      (c) => c.user?.type === 'Bot' && (c.body?.includes(STOPPED) || c.body?.includes(RESUMED)),
    )
    .at(-1);
  return last?.body?.includes(STOPPED) ?? false;
};

/**
 * The GitHub App: red builds (`workflow_run`, `check_suite`) and maintainer
 * commands (`/regreen fix`, `/regreen stop`). A webhook is answered at once:
 * the handlers only enqueue; triage and jobs run from the queue.
 */
export const regreenApp =
  (options: AppOptions) =>
  (app: Probot): void => {
    const { queue, logger } = options;

    /** One job for one failure, one at a time per repository; `onResult` hears how it ended. */
    const enqueueJob = (job: {
      client: GitHubClient;
      target: GitHubTarget;
      report: FailureReport;
      key: string;
      force: boolean;
    }): void => {
      const group = `${job.target.owner}/${job.target.repo}`;
      queue.enqueue({
        key: job.key,
        group,
        run: async () => {
          const result = await runFailure({
            client: job.client,
            target: job.target,
            report: job.report,
            token: () => clientToken(job.client),
            guards: options.guards,
            logger: logger.child({ job: job.key }),
            deps: options.deps,
            now: options.now(),
            force: job.force,
          });
          options.onResult?.(job.key, result);
        },
      });
    };

    /** `force` is the id of the `/regreen fix` comment that asked: its jobs run even if done before. */
    const enqueueBuild = (client: GitHubClient, build: RedBuild, force?: number): void => {
      const { target } = build;
      const repoKey = `${target.owner}/${target.repo}`;
      const source = JSON.stringify(build.source);
      const token = () => clientToken(client);
      queue.enqueue({
        key: `triage ${repoKey} ${target.headSha} ${source}${force ? ` fix ${force}` : ''}`,
        group: `triage ${repoKey}`,
        run: async () => {
          if (await stoppedOn(client, target)) {
            logger.info({ repo: repoKey, pull: target.pullNumber }, 'stopped on this pull request');
            return;
          }
          const { failures, unavailable } = await triageBuild(client, build, 'app');
          if (unavailable.length > 0 && failures.length === 0) {
            const forge = createGitHubForge({ client, target, token, logger });
            await reportUnavailableLogs(forge, unavailable);
          }
          for (const failure of failures) {
            enqueueJob({
              client,
              target,
              report: failure.report,
              key: `${repoKey}#${failure.triage.fingerprint}@${target.headSha}${force ? ` fix ${force}` : ''}`,
              force: force !== undefined,
            });
          }
        },
      });
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
        enqueueBuild(options.clientFor(parsed.build.installationId), parsed.build);
      };

    app.on('workflow_run.completed', onFailure('workflow_run'));
    app.on('check_suite.completed', onFailure('check_suite'));

    app.on('issue_comment.created', async (context) => {
      const { comment, issue, repository } = context.payload;
      const command = /^\/regreen\s+(fix|stop)\b/.exec(comment.body.trim())?.[1];
      const user = comment.user;
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
      const target: GitHubTarget = {
        ...base,
        branch: pull.head.ref,
        headSha: pull.head.sha,
        pullNumber: issue.number,
      };
      if (!(await canWrite(client, target, user.login))) {
        logger.info(
          { user: user.login, delivery: context.id },
          `/regreen ${command} ignored: no write access`,
        );
        return;
      }
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
        enqueueBuild(client, { target, source: { kind: 'run', runId: run.id } }, comment.id);
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
      if (!(await canWrite(client, target, user.login))) {
        logger.info(
          { user: user.login, delivery: context.id },
          'review comment ignored: no write access',
        );
        return;
      }
      const fingerprint =
        parseMarker(pull.body)?.fingerprint ?? pull.head.ref.slice('regreen/'.length);
      const where = `${comment.path}${comment.line ? `:${comment.line}` : ''}`;
      enqueueJob({
        client,
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
      });
    });
  };
