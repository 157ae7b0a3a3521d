import { z } from 'zod';
import type { GitHubTarget } from '../forge/github/forge.ts';

/**
 * From a GitHub event about a red build to failure reports: which jobs
 * failed, their logs (downloaded through the REST API, following the
 * redirect GitHub answers with), triaged into excerpt and fingerprint.
 */

const RepoSchema = z.object({
  name: z.string(),
  full_name: z.string().optional(),
  owner: z.object({ login: z.string() }),
  clone_url: z.string(),
  default_branch: z.string().optional(),
});
const PullRefSchema = z.object({
  number: z.number(),
  head: z.object({ ref: z.string(), sha: z.string().optional() }),
  base: z.object({ ref: z.string() }).optional(),
});
const InstallationSchema = z.object({ id: z.number() }).optional();

const WorkflowRunEvent = z.object({
  action: z.literal('completed'),
  workflow_run: z.object({
    id: z.number(),
    conclusion: z.string().nullable(),
    head_sha: z.string(),
    head_branch: z.string().nullable(),
    pull_requests: z.array(PullRefSchema).default([]),
    head_repository: z.object({ full_name: z.string() }).nullable().optional(),
  }),
  repository: RepoSchema,
  installation: InstallationSchema,
});
const CheckSuiteEvent = z.object({
  action: z.literal('completed'),
  check_suite: z.object({
    id: z.number(),
    conclusion: z.string().nullable(),
    head_sha: z.string(),
    head_branch: z.string().nullable(),
    pull_requests: z.array(PullRefSchema).default([]),
    app: z.object({ slug: z.string().optional() }).nullable().optional(),
  }),
  repository: RepoSchema,
  installation: InstallationSchema,
});
const CheckRunEvent = z.object({
  action: z.literal('completed'),
  check_run: z.object({
    id: z.number(),
    conclusion: z.string().nullable(),
    head_sha: z.string(),
    pull_requests: z.array(PullRefSchema).default([]),
    check_suite: z.object({ head_branch: z.string().nullable() }),
    app: z.object({ slug: z.string().optional() }).nullable().optional(),
  }),
  repository: RepoSchema,
  installation: InstallationSchema,
});
const WorkflowJobEvent = z.object({
  action: z.literal('completed'),
  workflow_job: z.object({
    id: z.number(),
    run_id: z.number(),
    name: z.string(),
    conclusion: z.string().nullable(),
    head_sha: z.string(),
    head_branch: z.string().nullable().optional(),
    steps: z.array(z.object({ name: z.string(), conclusion: z.string().nullable() })).default([]),
  }),
  repository: RepoSchema,
  installation: InstallationSchema,
});

export const FAILURE_EVENTS = ['workflow_run', 'check_suite', 'check_run', 'workflow_job'] as const;
export type FailureEventName = (typeof FAILURE_EVENTS)[number];

/** A job of a workflow run that failed. */
export interface FailedJob {
  readonly id: number;
  readonly name: string;
  /** The name of the failing step, as the API lists it. */
  readonly step?: string;
}

/** What an event says about a red build: where, and how to list its failed jobs. */
export interface RedBuild {
  readonly target: GitHubTarget;
  readonly installationId?: number;
  /** How to list the failed jobs (API calls happen here, not at parse time). */
  readonly source:
    | { readonly kind: 'run'; readonly runId: number }
    | { readonly kind: 'suite'; readonly suiteId: number }
    | { readonly kind: 'job'; readonly jobId: number; readonly job?: FailedJob };
}

export type ParsedEvent =
  | { readonly kind: 'red'; readonly build: RedBuild }
  | { readonly kind: 'ignored'; readonly why: string };

const targetOf = (
  repository: z.infer<typeof RepoSchema>,
  headSha: string,
  headBranch: string | null | undefined,
  pulls: readonly z.infer<typeof PullRefSchema>[],
): GitHubTarget => {
  const pull = pulls[0];
  return {
    owner: repository.owner.login,
    repo: repository.name,
    cloneUrl: repository.clone_url,
    headSha,
    branch: pull?.head.ref ?? headBranch ?? repository.default_branch ?? 'main',
    ...(pull ? { pullNumber: pull.number } : {}),
  };
};

export const isFailure = (conclusion: string | null): boolean =>
  conclusion === 'failure' || conclusion === 'timed_out';

/** Reads a delivery; a payload that does not match its schema is ignored with the reason. */
export const parseFailureEvent = (name: string, payload: unknown): ParsedEvent => {
  const bad = (error: z.ZodError): ParsedEvent => ({
    kind: 'ignored',
    why: `malformed ${name} payload: ${error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.')}: ${i.message}`)
      .join('; ')}`,
  });
  const notRed = (conclusion: string | null): ParsedEvent => ({
    kind: 'ignored',
    why: `${name} concluded ${conclusion ?? 'without a conclusion'}`,
  });
  /** A red build of this delivery: where it failed, the App installation, how to list its jobs. */
  const red = (
    repository: z.infer<typeof RepoSchema>,
    installation: { id: number } | undefined,
    head: {
      sha: string;
      branch: string | null | undefined;
      pulls: readonly z.infer<typeof PullRefSchema>[];
    },
    source: RedBuild['source'],
  ): ParsedEvent => ({
    kind: 'red',
    build: {
      target: targetOf(repository, head.sha, head.branch, head.pulls),
      ...(installation ? { installationId: installation.id } : {}),
      source,
    },
  });
  switch (name) {
    case 'workflow_run': {
      const parsed = WorkflowRunEvent.safeParse(payload);
      if (!parsed.success) return bad(parsed.error);
      const { workflow_run: run, repository, installation } = parsed.data;
      if (!isFailure(run.conclusion)) return notRed(run.conclusion);
      const head = run.head_repository?.full_name;
      const own = repository.full_name ?? `${repository.owner.login}/${repository.name}`;
      // A fork's code and a fork's branch: off by default; a maintainer's `/regreen fix` starts it.
      if (head && head.toLowerCase() !== own.toLowerCase())
        return {
          kind: 'ignored',
          why: `a red build of a pull request from the fork ${head}: regreen works on forks only when a maintainer comments /regreen fix`,
        };
      return red(
        repository,
        installation,
        { sha: run.head_sha, branch: run.head_branch, pulls: run.pull_requests },
        { kind: 'run', runId: run.id },
      );
    }
    case 'check_suite': {
      const parsed = CheckSuiteEvent.safeParse(payload);
      if (!parsed.success) return bad(parsed.error);
      const { check_suite: suite, repository, installation } = parsed.data;
      if (!isFailure(suite.conclusion)) return notRed(suite.conclusion);
      return red(
        repository,
        installation,
        { sha: suite.head_sha, branch: suite.head_branch, pulls: suite.pull_requests },
        { kind: 'suite', suiteId: suite.id },
      );
    }
    case 'check_run': {
      const parsed = CheckRunEvent.safeParse(payload);
      if (!parsed.success) return bad(parsed.error);
      const { check_run: run, repository, installation } = parsed.data;
      if (!isFailure(run.conclusion)) return notRed(run.conclusion);
      // An Actions check run's id is its job's id.
      return red(
        repository,
        installation,
        { sha: run.head_sha, branch: run.check_suite.head_branch, pulls: run.pull_requests },
        { kind: 'job', jobId: run.id },
      );
    }
    case 'workflow_job': {
      const parsed = WorkflowJobEvent.safeParse(payload);
      if (!parsed.success) return bad(parsed.error);
      const { workflow_job: job, repository, installation } = parsed.data;
      if (!isFailure(job.conclusion)) return notRed(job.conclusion);
      const step = failedStepOf(job.steps);
      return red(
        repository,
        installation,
        { sha: job.head_sha, branch: job.head_branch, pulls: [] },
        {
          kind: 'job',
          jobId: job.id,
          job: { id: job.id, name: job.name, ...(step ? { step } : {}) },
        },
      );
    }
    default:
      return { kind: 'ignored', why: `not a failure event: ${name}` };
  }
};

export const failedStepOf = (
  steps: readonly { name: string; conclusion: string | null }[] | undefined,
) => steps?.find((s) => isFailure(s.conclusion))?.name;
