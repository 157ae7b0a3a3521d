import path from 'node:path';
import type { JobRecord } from '../store/types.ts';
import { jobHtml } from './jobs-page.ts';
import { parseEvents } from './trace-read.ts';

type Json = Record<string, unknown>;

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;
const time = (value: unknown): number | null => {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(at) ? at : null;
};

/**
 * A job as the jobs page shows it, read from its trace alone (a job
 * `regreen fix` ran has no record in a store): where it ran, how it ended, its
 * PR text or diagnosis, its spend, its times. Every field is data, escaped
 * where the page renders it.
 */
export const jobOfTrace = (file: string, text: string): JobRecord => {
  const { events } = parseEvents(text);
  const intake = events.find(
    (e) => e.type === 'stage' && e.stage === 'intake' && e.phase === 'end',
  );
  const note = [...events].reverse().find((e) => e.type === 'note' && e.message === 'outcome');
  const outcome = (note?.data ?? {}) as Json;
  const spend = (outcome.spend ?? {}) as Json;
  const status = str(outcome.status);
  const first = time(events[0]?.ts);
  const last = time(events.at(-1)?.ts);
  // A job's folder is named by its id; a trace file elsewhere is named by its file.
  const id =
    path.basename(file) === 'trace.jsonl' ? path.basename(path.dirname(file)) : path.basename(file);
  return {
    id,
    key: id,
    kind: 'fix',
    repo: str(intake?.outcome) ?? '(unknown repository)',
    sha: str(outcome.baseSha),
    fingerprint: str(outcome.fingerprint),
    trigger: null,
    state: status === null ? 'running' : status === 'error' ? 'failed' : 'completed',
    outcome: status,
    summary: str(outcome.title) ?? str(outcome.reason),
    prUrl: str(outcome.url),
    costUsd: num(spend.costUsd),
    turns: num(spend.turns),
    attempts: 1,
    queuedAt: first,
    startedAt: first,
    finishedAt: status === null ? null : last,
    tracePath: file,
    traceText: text,
    detail: str(outcome.prText),
    error: status === 'error' ? str(outcome.reason) : null,
    note: null,
    interruptions: 0,
  };
};

/** What the server sends as a header, in the file itself: no script, no request, styles inline only. */
const CSP =
  '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">';

/**
 * `regreen trace show --html`: the page `regreen serve` shows of a job, made
 * from its trace, to open locally. The page's head comes before any of the
 * trace's text: the policy is put in it, after its charset.
 */
export const tracePageHtml = (file: string, text: string): string =>
  jobHtml(jobOfTrace(file, text), { standalone: true }).replace(
    '<meta charset="utf-8">',
    `<meta charset="utf-8">${CSP}`,
  );
