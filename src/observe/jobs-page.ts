import type { IncomingMessage, ServerResponse } from 'node:http';
import { changeOfTrace, readTrace, trajectoryOfTrace, workspaceOfTrace } from './trace-read.ts';
import type { JobRecord, JobStore } from '../store/types.ts';
import { agentEditsHtml } from './agent-edits.ts';
import {
  diffHtml,
  escapeHtml,
  htmlPage,
  icon,
  runSection,
  type IconName,
  type Trajectory,
} from './html.ts';
import { markdownHtml } from './markdown.ts';
import { DASHBOARD_COOKIE, presentsSecret, secretNeeded } from './secret-gate.ts';

const when = (at: number | null): string =>
  at ? new Date(at).toISOString().replace('T', ' ').slice(0, 19) : '—';

const duration = (job: JobRecord): string =>
  job.startedAt && job.finishedAt
    ? `${((job.finishedAt - job.startedAt) / 1000).toFixed(1)} s`
    : '—';

/** A job that ran out of attempts ended in `error` (its reason on its page). */
const result = (job: JobRecord): string =>
  job.state === 'completed'
    ? (job.outcome ?? 'done')
    : job.state === 'failed'
      ? 'error'
      : job.state;

const rowHtml = (j: JobRecord): string => {
  const { status, label } = statusOf(j);
  return `<tr data-state="${escapeHtml(j.state)}" data-status="${status}"><td><a href="/jobs/${escapeHtml(j.id)}">${escapeHtml(j.id.slice(0, 12))}</a></td><td>${escapeHtml(j.kind)}</td><td>${escapeHtml(j.repo)}</td><td>${escapeHtml((j.sha ?? '').slice(0, 12))}</td><td>${escapeHtml(j.fingerprint ?? '')}</td><td class="result">${icon(status, label)}${escapeHtml(result(j))}</td><td>${j.prUrl ? `<a href="${escapeHtml(j.prUrl)}">${escapeHtml(j.prUrl)}</a>` : ''}</td><td>${j.attempts}</td><td>${j.turns}</td><td>$${j.costUsd.toFixed(4)}</td><td>${when(j.queuedAt)}</td><td>${duration(j)}</td></tr>`;
};

/** Every job, newest first: repository, commit, fingerprint, outcome, pull request, spend, time. */
export const jobsListHtml = (jobs: readonly JobRecord[]): string =>
  htmlPage(
    'regreen — jobs',
    `<h1>regreen — jobs</h1>
<table id="jobs"><tr><th>job</th><th>kind</th><th>repository</th><th>commit</th><th>fingerprint</th><th>result</th><th>pull request</th><th>attempts</th><th>turns</th><th>cost</th><th>queued</th><th>time</th></tr>
${jobs.map(rowHtml).join('\n')}</table>`,
  );

const traceTextOf = (job: JobRecord): string | undefined =>
  job.traceText ?? readTrace(job.tracePath ?? undefined);

const trajectoryOf = (job: JobRecord): Trajectory => {
  const text = traceTextOf(job);
  return { ...trajectoryOfTrace(text), workspace: workspaceOfTrace(job.tracePath, text) };
};

/** How each outcome of a completed job is shown: a triage that queued fix jobs did its work. */
const OUTCOMES: Readonly<Record<string, { status: IconName; label: string }>> = {
  proposed: { status: 'pass', label: 'a fix proposed' },
  triaged: { status: 'info', label: 'triaged: its failures queued as fix jobs' },
  diagnosis: { status: 'warn', label: 'no fix: a diagnosis for a person' },
  suspended: { status: 'info', label: 'waiting for an answer' },
  'not-reproduced': { status: 'skip', label: 'the failure did not reproduce' },
  skipped: { status: 'skip', label: 'skipped' },
  error: { status: 'error', label: "regreen's own error" },
};

const outcomeStatus = (outcome: string | null): { status: IconName; label: string } =>
  (outcome && Object.hasOwn(OUTCOMES, outcome) ? OUTCOMES[outcome] : undefined) ?? {
    status: 'warn',
    label: outcome ?? 'done',
  };

const statusOf = (job: JobRecord): { status: IconName; label: string } =>
  job.state === 'failed'
    ? { status: 'error', label: `ended in error after ${job.attempts} attempt(s)` }
    : job.state !== 'completed'
      ? { status: 'skip', label: job.state }
      : outcomeStatus(job.outcome);

const DIFF_FENCE = /^ {0,3}(?:`{3,}|~{3,})[ \t]*(?:diff|patch)\b/im;

/** The change: a diff in the job's text when it has one, else the edits the agent's trace holds. */
const changesOf = (job: JobRecord, trajectory: Trajectory): string | undefined => {
  if (job.detail && DIFF_FENCE.test(job.detail)) return undefined;
  const change = changeOfTrace(traceTextOf(job));
  if (change)
    return `<p><small>The change the checks judged (the recipes' and the agent's alike)${change.truncated ? ', cut at 512 KiB' : ''}.</small></p>${diffHtml(change.diff)}`;
  const edits = agentEditsHtml(trajectory.steps, trajectory.workspace);
  return edits
    ? `<p><small>The agent's edits, from its tool calls (a recipe's change is not among them).</small></p>${edits}`
    : undefined;
};

/**
 * One job: what it was, how it ended, its text (the pull request's, or the
 * diagnosis), its changes and its trajectory. `standalone`: a file opened
 * locally, with no link back to a jobs list it is not served beside.
 */
export const jobHtml = (job: JobRecord, options: { standalone?: boolean } = {}): string => {
  const status = statusOf(job);
  const trajectory = trajectoryOf(job);
  const changes = changesOf(job, trajectory);
  return htmlPage(
    `regreen — job ${job.id.slice(0, 12)}`,
    `${options.standalone ? '' : '<p><a href="/jobs">← all jobs</a></p>\n'}<h1>${escapeHtml(job.repo)} — ${escapeHtml(result(job))}</h1>
<table><tr><th>key</th><td>${escapeHtml(job.key)}</td></tr>
<tr><th>commit</th><td>${escapeHtml(job.sha ?? '')}</td></tr>
<tr><th>fingerprint</th><td>${escapeHtml(job.fingerprint ?? '')}</td></tr>
<tr><th>pull request</th><td>${job.prUrl ? `<a href="${escapeHtml(job.prUrl)}">${escapeHtml(job.prUrl)}</a>` : '—'}</td></tr>
<tr><th>spend</th><td>$${job.costUsd.toFixed(4)}, ${job.turns} turns</td></tr>
<tr><th>attempts</th><td>${job.attempts}</td></tr>
<tr><th>queued / started / finished</th><td>${when(job.queuedAt)} / ${when(job.startedAt)} / ${when(job.finishedAt)}</td></tr>${
      job.note
        ? `\n<tr><th>on the way</th><td class="note">${job.note.split('\n').map(escapeHtml).join('<br>')}</td></tr>`
        : ''
    }${job.state === 'failed' && job.error ? `\n<tr><th>error</th><td class="error">${escapeHtml(job.error)}</td></tr>` : ''}</table>
${runSection({
  id: job.id,
  heading: `${job.kind} job`,
  status: status.status,
  statusLabel: status.label,
  summary: job.error ? `${job.summary ?? ''} ${job.error}`.trim() : (job.summary ?? ''),
  ...(job.detail
    ? {
        text: {
          label: job.outcome === 'proposed' ? 'pull request text' : 'diagnosis',
          html: markdownHtml(job.detail, { headingOffset: 1 }),
        },
      }
    : {}),
  ...(changes ? { diffs: changes } : {}),
  trajectory,
})}`,
  );
};

/**
 * The read-only jobs page at /jobs and /jobs/<id>. Without a configured
 * secret it is off; with one, a request must present it (bearer token, the
 * cookie set by a first `?key=` visit, or `?key=`). Returns false for paths
 * it does not serve.
 */
export const jobsPageHandler =
  (options: { store: JobStore; secret: string | undefined }) =>
  (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/jobs' && !url.pathname.startsWith('/jobs/')) return false;
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        'x-content-type-options': 'nosniff',
        ...headers,
      });
      res.end(body);
    };
    if (!options.secret) {
      send(404, htmlPage('regreen', '<p>The jobs page is off: set REGREEN_DASHBOARD_SECRET.</p>'));
      return true;
    }
    if (!presentsSecret(req, url, options.secret)) {
      const how = secretNeeded({
        page: 'This page',
        secret: 'dashboard secret',
        setting: 'REGREEN_DASHBOARD_SECRET',
        ways: [
          'once in the address, /jobs?key=SECRET (it moves into a cookie at once)',
          'as a header, Authorization: Bearer SECRET',
        ],
      });
      send(401, htmlPage('regreen', `<p>${escapeHtml(how)}</p>`), {
        'www-authenticate': 'Bearer realm="regreen"',
      });
      return true;
    }
    if (url.searchParams.has('key')) {
      // Keep the secret out of the address bar and the history: a cookie from now on.
      url.searchParams.delete('key');
      send(303, '', {
        location: `${url.pathname}${url.search}`,
        'set-cookie': `${DASHBOARD_COOKIE}=${encodeURIComponent(options.secret)}; HttpOnly; SameSite=Strict; Path=/jobs`,
      });
      return true;
    }
    if (url.pathname === '/jobs' || url.pathname === '/jobs/') {
      send(200, jobsListHtml(options.store.list({ limit: 200 })));
      return true;
    }
    const job = options.store.get(decodeURIComponent(url.pathname.slice('/jobs/'.length)));
    if (!job) send(404, htmlPage('regreen', '<p>No such job.</p>'));
    else send(200, jobHtml(job));
    return true;
  };
