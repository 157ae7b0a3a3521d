import { describeError } from '../errors.ts';
import type { GitHubTarget } from '../forge/github/forge.ts';
import type { GitHubClient } from '../forge/github/client.ts';
import { formatExcerpt, triageLog, type Triage } from './actions-log.ts';
import type { FailureReport } from './failure-report.ts';

import { failedStepOf, isFailure, type FailedJob, type RedBuild } from './github-events.ts';

/** The failed jobs of a red build, through the REST API. */
export const listFailedJobs = async (
  client: GitHubClient,
  build: RedBuild,
): Promise<FailedJob[]> => {
  const repoArgs = { owner: build.target.owner, repo: build.target.repo };
  const source = build.source;
  if (source.kind === 'run') {
    const jobs = await client.paginate(client.rest.actions.listJobsForWorkflowRun, {
      ...repoArgs,
      run_id: source.runId,
      filter: 'latest',
      per_page: 100,
    });
    return jobs
      .filter((job) => isFailure(job.conclusion))
      .map((job) => {
        const step = failedStepOf(job.steps);
        return { id: job.id, name: job.name, ...(step ? { step } : {}) };
      });
  }
  const jobIds =
    source.kind === 'job'
      ? source.job
        ? [source.job]
        : [{ id: source.jobId }]
      : (
          await client.paginate(client.rest.checks.listForSuite, {
            ...repoArgs,
            check_suite_id: source.suiteId,
            per_page: 100,
          })
        )
          .filter((run) => isFailure(run.conclusion))
          .map((run) => ({ id: run.id }));
  const out: FailedJob[] = [];
  for (const ref of jobIds) {
    if ('name' in ref) {
      out.push(ref);
      continue;
    }
    const { data: job } = await client.rest.actions.getJobForWorkflowRun({
      ...repoArgs,
      job_id: ref.id,
    });
    const step = failedStepOf(job.steps);
    out.push({ id: job.id, name: job.name, ...(step ? { step } : {}) });
  }
  return out;
};

export type JobLog =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly why: string };

/** A job's raw log; expired or missing logs (404/410) are an answer, not a crash. */
export const downloadJobLog = async (
  client: GitHubClient,
  target: Pick<GitHubTarget, 'owner' | 'repo'>,
  jobId: number,
): Promise<JobLog> => {
  try {
    const response = await client.rest.actions.downloadJobLogsForWorkflowRun({
      owner: target.owner,
      repo: target.repo,
      job_id: jobId,
    });
    const data: unknown = response.data;
    const text =
      typeof data === 'string'
        ? data
        : data instanceof ArrayBuffer
          ? Buffer.from(data).toString('utf8')
          : String(data);
    return { ok: true, text };
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 404 || status === 410)
      return {
        ok: false,
        why: `logs unavailable for job ${jobId} (HTTP ${status}: expired or deleted)`,
      };
    throw new Error(`cannot download the log of job ${jobId}: ${describeError(error)}`, {
      cause: error,
    });
  }
};

/**
 * The log of the same job in the most recent successful run of the same
 * workflow on the same branch: the baseline triage ranks the failing log
 * against. Best effort: any API error or a job that is not there is no baseline.
 */
export const lastGreenLog = async (
  client: GitHubClient,
  build: RedBuild,
  job: FailedJob,
): Promise<{ runId: number; text: string } | undefined> => {
  const repoArgs = { owner: build.target.owner, repo: build.target.repo };
  try {
    const runId =
      build.source.kind === 'run'
        ? build.source.runId
        : (await client.rest.actions.getJobForWorkflowRun({ ...repoArgs, job_id: job.id })).data
            .run_id;
    const { data: red } = await client.rest.actions.getWorkflowRun({ ...repoArgs, run_id: runId });
    const branch = red.head_branch ?? build.target.branch;
    const { data: green } = await client.rest.actions.listWorkflowRunsForRepo({
      ...repoArgs,
      branch,
      status: 'success',
      per_page: 20,
    });
    const last = green.workflow_runs
      .filter(
        (run) =>
          run.id !== red.id &&
          (red.workflow_id ? run.workflow_id === red.workflow_id : run.name === red.name) &&
          run.id < red.id,
      )
      .sort((a, b) => b.id - a.id)[0];
    if (!last) return undefined;
    const { data: jobs } = await client.rest.actions.listJobsForWorkflowRun({
      ...repoArgs,
      run_id: last.id,
      per_page: 100,
    });
    const same = jobs.jobs.find((j) => j.name === job.name && j.conclusion === 'success');
    if (!same) return undefined;
    const log = await downloadJobLog(client, build.target, same.id);
    return log.ok ? { runId: last.id, text: log.text } : undefined;
  } catch {
    return undefined;
  }
};

/** One failure to work on: the report for runJob and what triage found. */
export interface TriagedFailure {
  readonly job: FailedJob;
  readonly triage: Triage;
  readonly report: FailureReport;
}

/** A failed job's log turned into the report `runJob` takes. */
export const reportFromLog = (
  build: RedBuild,
  job: FailedJob,
  log: string,
  trigger: FailureReport['trigger'],
  baseline?: { readonly runId: number; readonly text: string },
): TriagedFailure => {
  const triage = triageLog(log, baseline ? { baseline: baseline.text } : {});
  const step = job.step ?? (triage.failingStep ? `Run ${triage.failingStep.title}` : undefined);
  return {
    job,
    triage,
    report: {
      repo: build.target.cloneUrl,
      ref: build.target.headSha,
      ...(build.target.branch ? { branch: build.target.branch } : {}),
      trigger,
      ...(step ? { workflowStep: { job: job.name, step } } : {}),
      // With a baseline, a line the last green run did not print is marked `+`, as `regreen triage --baseline` marks it.
      errorExcerpt: baseline
        ? `(ranked against the last green run, #${baseline.runId}: ${triage.newLines ?? 0} of these lines are new, marked +)\n${formatExcerpt(triage.excerpt, true)}`
        : formatExcerpt(triage.excerpt),
      fingerprint: triage.fingerprint,
    },
  };
};
