import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * What travels through the queue: plain data a worker on another machine can
 * run from (no clients, no closures). Every payload is checked against its
 * schema when a worker takes it; one that fails is dead-lettered with the
 * reason, never run.
 */
const TargetSchema = z.object({
  owner: z.string().min(1),
  repo: z.string().min(1),
  branch: z.string().min(1),
  headSha: z.string().min(1),
  pullNumber: z.number().int().positive().optional(),
  cloneUrl: z.string().min(1),
  fork: z.object({ repo: z.string().min(1), baseBranch: z.string().min(1) }).optional(),
});

const SourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('run'), runId: z.number().int() }),
  z.object({ kind: z.literal('suite'), suiteId: z.number().int() }),
  z.object({
    kind: z.literal('job'),
    jobId: z.number().int(),
    job: z
      .object({ id: z.number().int(), name: z.string(), step: z.string().optional() })
      .optional(),
  }),
]);

const ReportSchema = z.object({
  repo: z.string().min(1),
  ref: z.string().optional(),
  command: z.string().optional(),
  workflowJob: z.string().optional(),
  workflowStep: z.object({ job: z.string(), step: z.string() }).optional(),
  errorExcerpt: z.string().optional(),
  fingerprint: z.string().optional(),
  task: z
    .object({
      text: z.string(),
      author: z.string(),
      source: z.enum(['review', 'issue']).optional(),
    })
    .optional(),
  trigger: z.enum(['cli', 'app', 'action', 'eval']),
});

const QuestionSchema = z.object({
  question: z.string(),
  context: z.string().optional(),
  options: z.array(z.object({ label: z.string(), description: z.string().optional() })),
  allowFreeText: z.boolean(),
  multiSelect: z.boolean(),
  kind: z.enum(['question', 'permission']),
});

/** A suspended agent as it travels (see src/agent/suspend.ts); the conversation is checked by shape only. */
export const SuspendedStateSchema = z.object({
  pending: z.object({
    id: z.string().regex(/^[0-9a-f]{16}$/),
    question: QuestionSchema,
    where: z.string(),
    pullNumber: z.number().int().positive().optional(),
    askedAt: z.number(),
    deadline: z.number(),
  }),
  messages: z.array(
    z.looseObject({ role: z.enum(['user', 'assistant']), content: z.array(z.unknown()) }),
  ),
  results: z.array(z.looseObject({ type: z.string() })),
  callId: z.string().min(1),
  remaining: z.array(z.string()),
  spend: z.object({
    turns: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    cacheReadTokens: z.number(),
    cacheWriteTokens: z.number(),
    costUsd: z.number(),
    elapsedMs: z.number(),
  }),
  asked: z.array(z.looseObject({ id: z.string(), answer: z.looseObject({ kind: z.string() }) })),
  plan: z.string(),
  diff: z.string(),
});

export const JobPayloadSchema = z.discriminatedUnion('kind', [
  /** A red build: list its failed jobs, triage their logs, enqueue one fix per failure. */
  z.object({
    kind: z.literal('triage'),
    installationId: z.number().int(),
    build: z.object({ target: TargetSchema, source: SourceSchema }),
    /** The id of the `/regreen fix` comment that asked, when one did. */
    force: z.number().int().optional(),
  }),
  /** One failure: guards, then the job, reported on GitHub. */
  z.object({
    kind: z.literal('fix'),
    installationId: z.number().int(),
    target: TargetSchema,
    report: ReportSchema,
    force: z.boolean(),
  }),
  /** A job that stopped for a person's answer: see whether it came (or the deadline passed) and go on. */
  z.object({
    kind: z.literal('resume'),
    installationId: z.number().int(),
    target: TargetSchema,
    report: ReportSchema,
    /** The key of the job that asked. */
    origin: z.string().min(1),
    state: SuspendedStateSchema,
  }),
  /** Any other work a worker was started with a processor for (eval tasks, benchmarks, tests). */
  z.object({
    kind: z.literal('custom'),
    name: z.string().min(1),
    group: z.string().min(1),
    /** The repository the spend cap counts it against, when it spends. */
    repo: z.string().min(1).optional(),
    data: z.record(z.string(), z.unknown()),
  }),
]);

export type JobPayload = z.infer<typeof JobPayloadSchema>;

/** A job as enqueued: its dedupe key, the group it must not run concurrently with, and its payload. */
export interface JobSpec {
  /** Same key, same job: a duplicate enqueue is a no-op. */
  readonly key: string;
  /** At most one job of a group runs at a time (a repository). */
  readonly group: string;
  /** The repository the job is about, for records and the spend cap. */
  readonly repo: string;
  readonly payload: JobPayload;
}

/** A queue-safe id derived from the key (BullMQ ids may not contain ':'). */
export const jobIdFor = (key: string): string =>
  createHash('sha256').update(key).digest('hex').slice(0, 32);

/** How a job ended, as the worker reports it back (bounded, serialisable). */
export interface JobResult {
  readonly status: string;
  readonly summary: string;
  readonly fingerprint?: string;
  readonly prUrl?: string;
  readonly costUsd?: number;
  readonly turns?: number;
  readonly tracePath?: string;
  /** The trace (JSONL), bounded at a line, so that a page on another machine can show its trajectory. */
  readonly traceText?: string;
  /** What a person reads of the result: the pull request's text, or the diagnosis with its checks. */
  readonly detail?: string;
  /** A custom processor's own result (an eval task's), as JSON. */
  readonly data?: unknown;
}

/** Parses a payload taken from the queue; the error names the first bad field. */
export const parsePayload = (
  value: unknown,
): { ok: true; payload: JobPayload } | { ok: false; why: string } => {
  const parsed = JobPayloadSchema.safeParse(value);
  if (parsed.success) return { ok: true, payload: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    why: `payload fails its schema: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
  };
};
