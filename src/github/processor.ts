import { readTrace } from '../observe/trace-read.ts';
import { describeError, isRegreenError } from '../errors.ts';
import type { GitHubTarget } from '../forge/github/forge.ts';
import { createForge } from '../forge/index.ts';
import type { Forge } from '../forge/types.ts';
import type { JobDeps, Progress } from '../job/deps.ts';
import type { Outcome } from '../job/outcome.ts';
import { checksTable } from '../job/pr-text.ts';
import type { Logger } from '../logger.ts';
import type { JobPayload, JobResult, JobSpec } from '../queue/jobs.ts';
import { RetryableError, type Processor } from '../queue/types.ts';
import type { ResumeAgent, SuspendedAgent } from '../agent/suspend.ts';
import { githubQuestionChannel } from '../questions/github.ts';
import type { WaitClock } from '../questions/channel.ts';
import { clientToken, selfLogin, type GitHubClient } from '../forge/github/client.ts';
import {
  reportUnavailableLogs,
  runFailure,
  triageBuild,
  type FailureResult,
  type Guards,
} from './run-failure.ts';

const STOPPED = '<!-- regreen:stopped -->';
const RESUMED = '<!-- regreen:resumed -->';
export const STOP_MARKERS = { STOPPED, RESUMED } as const;

/** Whether a maintainer told regreen to stop on this pull request (and did not resume it). */
export const stoppedOn = async (client: GitHubClient, target: GitHubTarget): Promise<boolean> => {
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

const repoOf = (target: GitHubTarget): string => `${target.owner}/${target.repo}`;

/** The spec of one fix job: keyed by repository, fingerprint and commit (and the comment that forced it). */
export const fixSpec = (job: {
  installationId: number;
  target: GitHubTarget;
  report: Extract<JobPayload, { kind: 'fix' }>['report'];
  key: string;
  force: boolean;
}): JobSpec => ({
  key: job.key,
  group: repoOf(job.target),
  repo: repoOf(job.target),
  payload: {
    kind: 'fix',
    installationId: job.installationId,
    target: job.target,
    report: job.report,
    force: job.force,
  },
});

/** The spec of a triage job for a red build (triage of one repository runs one at a time). */
export const triageSpec = (
  installationId: number,
  build: Extract<JobPayload, { kind: 'triage' }>['build'],
  force?: number,
): JobSpec => {
  const repo = repoOf(build.target);
  return {
    key: `triage ${repo} ${build.target.headSha} ${JSON.stringify(build.source)}${force ? ` fix ${force}` : ''}`,
    group: `triage ${repo}`,
    repo,
    payload: { kind: 'triage', installationId, build, ...(force ? { force } : {}) },
  };
};

const MAX_TRACE_TEXT = 400_000;

/** The trace itself (JSONL, secrets already redacted), bounded at a line: the page renders it anywhere. */
const traceText = (file: string | undefined): string | undefined => {
  const text = readTrace(file);
  if (!text) return undefined;
  if (text.length <= MAX_TRACE_TEXT) return text;
  const cut = text.lastIndexOf('\n', MAX_TRACE_TEXT);
  return text.slice(0, cut > 0 ? cut + 1 : MAX_TRACE_TEXT);
};

/** How a job's result travels back through the queue. */
export const resultOf = (result: FailureResult): JobResult => {
  if (result.kind === 'skipped') return { status: 'skipped', summary: result.why };
  const outcome: Outcome = result.outcome;
  const spend = outcome.spend;
  const text = traceText(outcome.tracePath);
  const detail =
    outcome.status === 'proposed'
      ? outcome.prText
      : outcome.status === 'diagnosis'
        ? [outcome.reason, outcome.checks.length > 0 ? checksTable(outcome.checks) : '']
            .filter(Boolean)
            .join('\n\n')
        : undefined;
  return {
    status: outcome.status,
    summary: outcome.status === 'proposed' ? outcome.title : outcome.reason,
    ...('fingerprint' in outcome && outcome.fingerprint
      ? { fingerprint: outcome.fingerprint }
      : {}),
    ...(outcome.status === 'proposed' && outcome.url ? { prUrl: outcome.url } : {}),
    ...(spend ? { costUsd: spend.costUsd, turns: spend.turns } : {}),
    ...(outcome.tracePath ? { tracePath: outcome.tracePath } : {}),
    ...(text ? { traceText: text } : {}),
    ...(detail ? { detail: detail.slice(0, MAX_TRACE_TEXT) } : {}),
  };
};

/** Errors of regreen's own (the sandbox, GitHub, the model API) are retried; a model's "cannot fix" is an outcome. */
const RETRYABLE_CODES = new Set(['sandbox-unavailable', 'model', 'forge', 'clone-failed']);

/**
 * An error outcome worth another attempt: one of regreen's own (sandbox,
 * GitHub, the model API, the clone) that came before the model spent
 * anything. After the agent ran, the outcome is reported with its spend —
 * which the spend cap then counts — rather than paid for again; and a forge
 * that refuses for good (`forge-refused`) is never retried.
 */
export const worthRetrying = (outcome: Outcome): outcome is Extract<Outcome, { status: 'error' }> =>
  outcome.status === 'error' &&
  RETRYABLE_CODES.has(outcome.code) &&
  !(outcome.spend && outcome.spend.turns > 0);

export interface GitHubProcessorOptions {
  readonly guards: Guards;
  readonly deps: (forge: Forge, progress: Progress) => JobDeps;
  readonly logger: Logger;
  readonly now: () => number;
  readonly clientFor: (installationId: number) => GitHubClient;
  /** Where triage puts the fix jobs it finds. */
  readonly enqueue: (spec: JobSpec) => Promise<boolean>;
  /** Called with each fix job's result (logs, tests). */
  readonly onResult?: (key: string, result: FailureResult) => void;
  /** A question stops the job (its state comes back in the result) instead of waiting in the worker. */
  readonly suspend?: boolean;
  /** For the one poll of a resumed question (tests pass a fake). */
  readonly waitClock?: WaitClock;
}

/** A job waiting for a person: what the App stores and later puts back on the queue as a `resume` job. */
export interface SuspendedJobData {
  readonly payload: Extract<JobPayload, { kind: 'resume' }>;
}

const suspendedResult = (
  from: Extract<JobPayload, { kind: 'fix' | 'resume' }> & { origin?: string },
  state: SuspendedAgent & { diff: string },
  why: string,
): JobResult => ({
  status: 'suspended',
  summary: `${why}: ${state.pending.question.question} (${state.pending.where})`,
  data: {
    payload: {
      kind: 'resume',
      installationId: from.installationId,
      target: from.target,
      report: from.report,
      origin: from.origin ?? '',
      state: state as unknown as Extract<JobPayload, { kind: 'resume' }>['state'],
    },
  } satisfies SuspendedJobData,
});

/** Runs the App's jobs wherever a worker is: triage of a red build, and one failure's fix. */
export const githubProcessor =
  (options: GitHubProcessorOptions): Processor =>
  async (payload, job) => {
    const logger = options.logger.child({ job: job.key });
    if (payload.kind === 'custom') throw new Error(`no processor for custom job ${payload.name}`);
    const client = options.clientFor(payload.installationId);
    const token = () => clientToken(client);
    try {
      if (payload.kind === 'triage') {
        const { build, force } = payload;
        const { target } = build;
        if (await stoppedOn(client, target)) {
          logger.info({ pull: target.pullNumber }, 'stopped on this pull request');
          return {
            status: 'skipped',
            summary: 'a maintainer stopped regreen on this pull request',
          };
        }
        const { failures, unavailable } = await triageBuild(client, build, 'app');
        if (unavailable.length > 0 && failures.length === 0) {
          const forge = createForge({
            kind: 'github',
            client,
            target,
            token,
            logger,
          });
          await reportUnavailableLogs(forge, unavailable);
        }
        for (const failure of failures) {
          await options.enqueue(
            fixSpec({
              installationId: payload.installationId,
              target,
              report: failure.report,
              key: `${repoOf(target)}#${failure.triage.fingerprint}@${target.headSha}${force ? ` fix ${force}` : ''}`,
              force: force !== undefined,
            }),
          );
        }
        return {
          status: 'triaged',
          summary: `${failures.length} failure(s)${unavailable.length ? `, ${unavailable.length} log(s) unavailable` : ''}`,
        };
      }
      const ceiling = job.costCeilingUsd;
      let resume: ResumeAgent | undefined;
      if (payload.kind === 'resume') {
        // Has the answer come (or the deadline passed)? Else the job goes back to waiting.
        const state = payload.state as unknown as SuspendedAgent & { diff: string };
        const pullNumber = state.pending.pullNumber ?? payload.target.pullNumber;
        if (!pullNumber) throw new Error('a suspended job without its pull request');
        const channel = githubQuestionChannel({
          client,
          owner: payload.target.owner,
          repo: payload.target.repo,
          pullNumber,
          selfLogin: () => selfLogin(client),
          logger,
          ...(options.waitClock ? { clock: options.waitClock } : {}),
        });
        const now = options.now();
        const { pending } = state;
        const answer = await channel.wait(
          pending.id,
          pending.question,
          Math.min(now, pending.deadline),
          new AbortController().signal,
        );
        if (answer.kind === 'timeout' && now < pending.deadline)
          return suspendedResult(payload, state, 'still waiting for an answer');
        await channel.close(pending.id, pending.question, answer).catch(() => undefined);
        resume = { ...state, answer };
      }
      const result = await runFailure({
        client,
        target: payload.target,
        report: payload.report,
        token,
        guards: options.guards,
        logger,
        deps: (forge, progress) => ({
          ...options.deps(forge, progress),
          ...(ceiling !== undefined ? { costCeilingUsd: ceiling } : {}),
          ...(resume ? { resume } : {}),
        }),
        now: options.now(),
        // A resumed job is the same attempt as the one that asked.
        force: payload.kind === 'resume' ? true : payload.force,
        ...(options.suspend ? { suspend: true } : {}),
      });
      options.onResult?.(job.key, result);
      if (result.kind === 'ran' && result.outcome.status === 'suspended') {
        const origin = payload.kind === 'resume' ? payload.origin : job.key;
        return suspendedResult({ ...payload, origin }, result.outcome.state, result.outcome.reason);
      }
      if (result.kind === 'ran' && worthRetrying(result.outcome))
        throw new RetryableError(`${result.outcome.code}: ${result.outcome.reason}`);
      return resultOf(result);
    } catch (error) {
      if (error instanceof RetryableError) throw error;
      if (isRegreenError(error) && RETRYABLE_CODES.has(error.code))
        throw new RetryableError(describeError(error), { cause: error });
      // GitHub answering 5xx or not at all (octokit reports a network failure as 500): worth another attempt.
      // Anything else — a 4xx, a bug — would fail the same way again.
      const status = (error as { status?: number }).status;
      if (status !== undefined && (status >= 500 || status === 429))
        throw new RetryableError(describeError(error), { cause: error });
      throw error;
    }
  };
