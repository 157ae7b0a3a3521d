import picomatch from 'picomatch';
import { describeError } from '../errors.ts';
import { findDiagnosis, type GitHubTarget } from '../forge/github/forge.ts';
import { createForge } from '../forge/index.ts';
import type { Forge } from '../forge/types.ts';
import { fingerprint as hashFingerprint } from '../intake/failure-report.ts';
import type { RedBuild } from '../intake/github-events.ts';
import {
  downloadJobLog,
  lastGreenLog,
  listFailedJobs,
  reportFromLog,
  type TriagedFailure,
} from '../intake/github-jobs.ts';
import type { FailureReport } from '../intake/failure-report.ts';
import type { JobDeps, Progress } from '../job/deps.ts';
import type { Outcome } from '../job/outcome.ts';
import { runJob } from '../job/run-job.ts';
import type { Logger } from '../logger.ts';
import { draftPullChannel } from '../questions/draft-pull.ts';
import { githubQuestionChannel } from '../questions/github.ts';
import { selfLogin, type GitHubClient } from '../forge/github/client.ts';
import { parseMarker } from '../forge/github/markers.ts';

/** Limits that keep a bot from flooding a repository. */
export interface Guards {
  /** Jobs per fingerprint (a PR or diagnosis counts its attempts). */
  readonly maxAttempts: number;
  /** regreen PRs open at once in a repository. */
  readonly maxOpenPrs: number;
  /** regreen PRs opened in a repository in the last hour. */
  readonly maxPrsPerHour: number;
  /** `owner/repo` globs; empty means every repository the App is installed on. */
  readonly allowRepos: readonly string[];
}

export const DEFAULT_GUARDS: Guards = {
  maxAttempts: 3,
  maxOpenPrs: 5,
  maxPrsPerHour: 3,
  allowRepos: [],
};

export type Verdict = { readonly ok: true } | { readonly ok: false; readonly why: string };

export const repoAllowed = (guards: Guards, owner: string, repo: string): Verdict =>
  guards.allowRepos.length === 0 ||
  picomatch.isMatch(`${owner}/${repo}`, [...guards.allowRepos], { nocase: true })
    ? { ok: true }
    : { ok: false, why: `${owner}/${repo} is not in the allow-list` };

/** Triages every failed job of a build; jobs that failed the same way become one failure. */
export const triageBuild = async (
  client: GitHubClient,
  build: RedBuild,
  trigger: FailureReport['trigger'],
): Promise<{ failures: TriagedFailure[]; unavailable: string[] }> => {
  const jobs = await listFailedJobs(client, build);
  const failures: TriagedFailure[] = [];
  const unavailable: string[] = [];
  for (const job of jobs) {
    const log = await downloadJobLog(client, build.target, job.id);
    if (!log.ok) {
      unavailable.push(`${job.name}: ${log.why}`);
      continue;
    }
    const baseline = await lastGreenLog(client, build, job);
    const failure = reportFromLog(build, job, log.text, trigger, baseline);
    if (!failures.some((f) => f.triage.fingerprint === failure.triage.fingerprint))
      failures.push(failure);
  }
  return { failures, unavailable };
};

/** Checks the guards that depend on GitHub's state for this failure. */
export const checkGuards = async (
  client: GitHubClient,
  target: GitHubTarget,
  fingerprint: string,
  guards: Guards,
  now: number,
  options: { force?: boolean } = {},
): Promise<Verdict> => {
  const allowed = repoAllowed(guards, target.owner, target.repo);
  if (!allowed.ok) return allowed;
  const repoArgs = { owner: target.owner, repo: target.repo };
  const pulls = await client.paginate(client.rest.pulls.list, {
    ...repoArgs,
    state: 'all',
    per_page: 100,
  });
  const ours = pulls.filter((p) => p.head.ref.startsWith('regreen/'));
  const mine = ours.find((p) => p.head.ref === `regreen/${fingerprint}` && p.state === 'open');
  const diagnosis = await findDiagnosis(client, target, fingerprint);
  const attempts = Math.max(parseMarker(mine?.body)?.attempts ?? 0, diagnosis?.attempts ?? 0);
  // A failure of regreen's own branch counts against its attempts, and `/regreen fix` adds one.
  const limit = guards.maxAttempts + (options.force ? 1 : 0);
  if (attempts >= limit)
    return {
      ok: false,
      why: `fingerprint ${fingerprint} already had ${attempts} attempt(s) (limit ${guards.maxAttempts})`,
    };
  if (!mine) {
    const open = ours.filter((p) => p.state === 'open').length;
    if (open >= guards.maxOpenPrs)
      return {
        ok: false,
        why: `${open} regreen pull requests are open (limit ${guards.maxOpenPrs})`,
      };
    const lastHour = ours.filter((p) => now - Date.parse(p.created_at) < 3600_000).length;
    if (lastHour >= guards.maxPrsPerHour)
      return {
        ok: false,
        why: `${lastHour} regreen pull requests opened in the last hour (limit ${guards.maxPrsPerHour})`,
      };
  }
  return { ok: true };
};

/** The `regreen` check run on the failing commit, updated as the job goes. */
const checkRun = async (
  client: GitHubClient,
  target: GitHubTarget,
  logger: Logger,
): Promise<{ progress: Progress; finish: (outcome: Outcome) => Promise<void> }> => {
  const repoArgs = { owner: target.owner, repo: target.repo };
  const lines: string[] = [];
  let id: number | undefined;
  try {
    const { data } = await client.rest.checks.create({
      ...repoArgs,
      name: 'regreen',
      head_sha: target.headSha,
      status: 'in_progress',
      output: { title: 'regreen is working on this failure', summary: 'starting' },
    });
    id = data.id;
  } catch (error) {
    logger.warn({ err: describeError(error) }, 'cannot create the regreen check run');
  }
  let updates = Promise.resolve();
  const update = (fields: Record<string, unknown>): Promise<void> => {
    if (id === undefined) return Promise.resolve();
    const checkRunId = id;
    updates = updates
      .then(async () => {
        await client.rest.checks.update({ ...repoArgs, check_run_id: checkRunId, ...fields });
      })
      .catch((error: unknown) =>
        logger.warn({ err: describeError(error) }, 'cannot update the regreen check run'),
      );
    return updates;
  };
  return {
    progress: (event) => {
      if (event.kind !== 'stage') return;
      const { stage, outcome, durationMs } = event;
      lines.push(`- **${stage}** (${(durationMs / 1000).toFixed(1)} s): ${outcome}`);
      void update({
        output: { title: `regreen: ${stage} done`, summary: lines.join('\n') },
      });
    },
    finish: async (outcome) => {
      if (outcome.status === 'suspended') {
        // The check stays in progress while regreen waits for an answer.
        await update({
          output: {
            title: 'regreen is waiting for an answer',
            summary: `${lines.join('\n')}\n\n${outcome.reason}: ${outcome.pending.where}`.slice(
              0,
              60_000,
            ),
          },
        });
        return;
      }
      const conclusion =
        outcome.status === 'proposed'
          ? 'success'
          : outcome.status === 'error'
            ? 'failure'
            : 'neutral';
      const title =
        outcome.status === 'proposed'
          ? `fix proposed: ${outcome.url ?? outcome.branch}`
          : outcome.status === 'diagnosis'
            ? 'no fix proposed'
            : outcome.status === 'not-reproduced'
              ? 'the failure did not reproduce'
              : 'regreen failed to run';
      const reason = outcome.status === 'proposed' ? outcome.title : outcome.reason;
      await update({
        status: 'completed',
        conclusion,
        output: { title, summary: `${lines.join('\n')}\n\n${reason}`.slice(0, 60_000) },
      });
    },
  };
};

export interface FailureRun {
  readonly client: GitHubClient;
  readonly target: GitHubTarget;
  readonly report: FailureReport;
  readonly token: () => Promise<string>;
  readonly guards: Guards;
  readonly logger: Logger;
  /** The job's dependencies around the forge and progress made here. */
  readonly deps: (forge: Forge, progress: Progress) => JobDeps;
  readonly now: number;
  readonly force?: boolean;
  /** A question stops the job to be resumed later (the App), instead of waiting here. */
  readonly suspend?: boolean;
}

export type FailureResult =
  | { readonly kind: 'skipped'; readonly why: string }
  | { readonly kind: 'ran'; readonly outcome: Outcome };

/** Guards, then the job with the GitHub forge, reported on the commit's `regreen` check run. */
export const runFailure = async (run: FailureRun): Promise<FailureResult> => {
  const fingerprint = run.report.fingerprint ?? '';
  const verdict = await checkGuards(run.client, run.target, fingerprint, run.guards, run.now, {
    ...(run.force ? { force: true } : {}),
  });
  if (!verdict.ok) {
    run.logger.info({ fingerprint, why: verdict.why }, 'skipped by a guard');
    return { kind: 'skipped', why: verdict.why };
  }
  const forge = createForge({
    kind: 'github',
    client: run.client,
    target: run.target,
    token: run.token,
    logger: run.logger,
  });
  const check = await checkRun(run.client, run.target, run.logger);
  const deps = run.deps(forge, check.progress);
  // On a pull request the agent may ask its people: the card is a comment there.
  const pullNumber = run.target.pullNumber;
  // Elsewhere (a push to a branch) it asks on regreen's own draft pull request for the fingerprint.
  const channel = pullNumber
    ? githubQuestionChannel({
        client: run.client,
        owner: run.target.owner,
        repo: run.target.repo,
        pullNumber,
        selfLogin: () => selfLogin(run.client),
        logger: run.logger,
      })
    : run.report.fingerprint
      ? draftPullChannel({
          client: run.client,
          target: run.target,
          fingerprint: run.report.fingerprint,
          selfLogin: () => selfLogin(run.client),
          logger: run.logger,
        })
      : undefined;
  const questions =
    deps.questions ??
    (channel ? { channel, ...(run.suspend ? { suspend: true } : {}) } : undefined);
  const outcome = await runJob(run.report, { ...deps, ...(questions ? { questions } : {}) });
  await check.finish(outcome);
  return { kind: 'ran', outcome };
};

/** When the logs are gone there is nothing to reproduce from: one diagnosis says so. */
export const reportUnavailableLogs = async (
  forge: Forge,
  unavailable: readonly string[],
): Promise<void> => {
  await forge.diagnose({
    fingerprint: hashFingerprint({ command: 'logs-unavailable', errorLines: [...unavailable] }),
    title: 'regreen: logs unavailable',
    body: `regreen could not read the logs of the failed jobs, so it cannot reproduce the failure:\n\n${unavailable.map((u) => `- ${u}`).join('\n')}`,
  });
};
