import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describeError, RegreenError } from '../errors.ts';

import { MIGRATIONS } from './migrations.ts';
import type { JobSpec } from '../queue/jobs.ts';
import type { JobRecord, JobState, JobStore, SuspendedJob } from './types.ts';

/** A note's time, as the jobs page shows times. */
const stamp = (at: number): string => new Date(at).toISOString().replace('T', ' ').slice(0, 19);

const corrupt = (file: string, error: unknown): RegreenError =>
  new RegreenError(
    'config',
    `the job store ${file} is not a usable SQLite database (${describeError(error)}). regreen never recreates it: move it aside to start an empty one`,
    { cause: error },
  );

interface Row {
  id: string;
  key: string;
  kind: string;
  repo: string;
  sha: string | null;
  fingerprint: string | null;
  trigger: string | null;
  state: JobState;
  outcome: string | null;
  summary: string | null;
  pr_url: string | null;
  cost_usd: number;
  turns: number;
  attempts: number;
  queued_at: number | null;
  started_at: number | null;
  finished_at: number | null;
  trace_path: string | null;
  trace_text: string | null;
  detail: string | null;
  error: string | null;
  note: string | null;
  interruptions: number;
}

const toRecord = (row: Row): JobRecord => ({
  id: row.id,
  key: row.key,
  kind: row.kind,
  repo: row.repo,
  sha: row.sha,
  fingerprint: row.fingerprint,
  trigger: row.trigger,
  state: row.state,
  outcome: row.outcome,
  summary: row.summary,
  prUrl: row.pr_url,
  costUsd: row.cost_usd,
  turns: row.turns,
  attempts: row.attempts,
  queuedAt: row.queued_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  tracePath: row.trace_path,
  traceText: row.trace_text,
  detail: row.detail,
  error: row.error,
  note: row.note,
  interruptions: row.interruptions,
});

/** Opens (or creates) the store and brings its schema up to date. A file that is not a database is an error, never replaced. */
export const openJobStore = (file: string): JobStore => {
  const fresh = !existsSync(file);
  if (fresh) mkdirSync(path.dirname(file), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > MIGRATIONS.length) {
      throw new Error(
        `schema version ${version} is newer than this regreen knows (${MIGRATIONS.length})`,
      );
    }
    const migrate = db.transaction(() => {
      for (let v = version; v < MIGRATIONS.length; v += 1) {
        db.exec(MIGRATIONS[v] ?? '');
        db.pragma(`user_version = ${v + 1}`);
      }
    });
    migrate();
  } catch (error) {
    throw corrupt(file, error);
  }

  const insert = db.prepare(
    `INSERT INTO jobs (id, key, kind, repo, sha, fingerprint, trigger, state, queued_at, spec)
     VALUES (@id, @key, @kind, @repo, @sha, @fingerprint, @trigger, 'queued', @at, @spec)
     ON CONFLICT(id) DO UPDATE SET key = excluded.key, kind = excluded.kind, repo = excluded.repo,
       sha = excluded.sha, fingerprint = COALESCE(jobs.fingerprint, excluded.fingerprint),
       trigger = excluded.trigger, queued_at = COALESCE(jobs.queued_at, excluded.queued_at),
       spec = excluded.spec`,
  );
  const started = db.prepare(
    `INSERT INTO jobs (id, key, kind, repo, state, started_at, attempts) VALUES (@id, @id, '?', '?', 'running', @at, @attempt)
     ON CONFLICT(id) DO UPDATE SET state = 'running', started_at = @at, attempts = @attempt`,
  );
  const completed = db.prepare(
    `UPDATE jobs SET state = 'completed', outcome = @outcome, summary = @summary, pr_url = @prUrl,
       fingerprint = COALESCE(@fingerprint, fingerprint), cost_usd = cost_usd + @cost, turns = turns + @turns,
       finished_at = @at, trace_path = @tracePath, trace_text = @traceText, detail = @detail, error = NULL
     WHERE id = @id`,
  );
  const failed = db.prepare(
    `UPDATE jobs SET state = CASE WHEN @final THEN 'failed' ELSE state END, error = @reason,
       outcome = CASE WHEN @final THEN 'error' ELSE outcome END,
       finished_at = CASE WHEN @final THEN @at ELSE finished_at END
     WHERE id = @id`,
  );
  // Only an unfinished job goes back (a late event about a finished one changes nothing).
  const requeued = db.prepare(
    `UPDATE jobs SET state = 'queued', interruptions = interruptions + (state = 'running'),
       note = COALESCE(note || char(10), '') || @note
     WHERE id = @id AND state IN ('queued', 'running')`,
  );

  const guarded = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (/not a database|malformed|corrupt/i.test(describeError(error)))
        throw corrupt(file, error);
      throw error;
    }
  };

  return {
    file,
    record: (event) =>
      guarded(() => {
        switch (event.type) {
          case 'queued': {
            const payload = event.spec.payload;
            insert.run({
              id: event.id,
              key: event.spec.key,
              kind: payload.kind,
              repo: event.spec.repo,
              sha:
                payload.kind === 'fix' || payload.kind === 'resume'
                  ? payload.target.headSha
                  : payload.kind === 'triage'
                    ? payload.build.target.headSha
                    : null,
              fingerprint:
                payload.kind === 'fix' || payload.kind === 'resume'
                  ? (payload.report.fingerprint ?? null)
                  : null,
              trigger: payload.kind === 'custom' ? payload.name : 'app',
              at: event.at,
              spec: JSON.stringify(event.spec),
            });
            return;
          }
          case 'started':
            started.run({ id: event.id, at: event.at, attempt: event.attempt });
            return;
          case 'completed':
            completed.run({
              id: event.id,
              outcome: event.result.status,
              summary: event.result.summary,
              prUrl: event.result.prUrl ?? null,
              fingerprint: event.result.fingerprint ?? null,
              cost: event.result.costUsd ?? 0,
              turns: event.result.turns ?? 0,
              at: event.at,
              tracePath: event.result.tracePath ?? null,
              traceText: event.result.traceText ?? null,
              detail: event.result.detail ?? null,
            });
            return;
          case 'requeued':
            requeued.run({ id: event.id, note: `${stamp(event.at)} ${event.reason}` });
            return;
          case 'failed':
            failed.run({
              id: event.id,
              reason: event.reason,
              final: event.final ? 1 : 0,
              at: event.at,
            });
            return;
        }
      }),
    list: ({ limit = 100, offset = 0 } = {}) =>
      guarded(() =>
        (
          db
            .prepare(
              `SELECT * FROM jobs ORDER BY COALESCE(queued_at, started_at) DESC, id LIMIT ? OFFSET ?`,
            )
            .all(limit, offset) as Row[]
        ).map(toRecord),
      ),
    unfinished: () =>
      guarded(() =>
        (
          db
            .prepare(
              `SELECT * FROM jobs WHERE state IN ('queued', 'running') ORDER BY COALESCE(queued_at, started_at), id`,
            )
            .all() as Row[]
        ).map(toRecord),
      ),
    specOf: (id) =>
      guarded(() => {
        const row = db.prepare(`SELECT spec FROM jobs WHERE id = ?`).get(id) as
          { spec: string | null } | undefined;
        return row?.spec ? (JSON.parse(row.spec) as JobSpec) : undefined;
      }),
    get: (id) =>
      guarded(() => {
        const row = db.prepare(`SELECT * FROM jobs WHERE id = ?`).get(id) as Row | undefined;
        return row ? toRecord(row) : undefined;
      }),
    spent: (repo, month) =>
      guarded(
        () =>
          (
            db.prepare(`SELECT usd FROM spend WHERE repo = ? AND month = ?`).get(repo, month) as
              { usd: number } | undefined
          )?.usd ?? 0,
      ),
    addSpend: (repo, month, usd) =>
      guarded(
        () =>
          (
            db
              .prepare(
                `INSERT INTO spend (repo, month, usd) VALUES (?, ?, ?)
                 ON CONFLICT(repo, month) DO UPDATE SET usd = usd + excluded.usd RETURNING usd`,
              )
              .get(repo, month, usd) as { usd: number }
          ).usd,
      ),
    suspend: (job) =>
      guarded(() => {
        db.prepare(
          `INSERT OR REPLACE INTO suspended (job_id, question_id, deadline, state, created_at) VALUES (?, ?, ?, ?, ?)`,
        ).run(job.jobId, job.questionId, job.deadline, JSON.stringify(job.state), job.createdAt);
      }),
    takeSuspended: (jobId) =>
      guarded(() => {
        const row = db.prepare(`DELETE FROM suspended WHERE job_id = ? RETURNING *`).get(jobId) as
          SuspendedRow | undefined;
        return row ? toSuspended(row) : undefined;
      }),
    suspendedDue: (now) =>
      guarded(() =>
        (
          db
            .prepare(`SELECT * FROM suspended WHERE deadline <= ? ORDER BY deadline`)
            .all(now) as SuspendedRow[]
        ).map(toSuspended),
      ),
    suspendedAll: () =>
      guarded(() =>
        (db.prepare(`SELECT * FROM suspended ORDER BY created_at`).all() as SuspendedRow[]).map(
          toSuspended,
        ),
      ),
    suspendedByQuestion: (questionId) =>
      guarded(() => {
        const row = db.prepare(`SELECT * FROM suspended WHERE question_id = ?`).get(questionId) as
          SuspendedRow | undefined;
        return row ? toSuspended(row) : undefined;
      }),
    close: () => db.close(),
  };
};

interface SuspendedRow {
  job_id: string;
  question_id: string;
  deadline: number;
  state: string;
  created_at: number;
}

const toSuspended = (row: SuspendedRow): SuspendedJob => ({
  jobId: row.job_id,
  questionId: row.question_id,
  deadline: row.deadline,
  state: JSON.parse(row.state) as unknown,
  createdAt: row.created_at,
});
