/**
 * `regreen eval compare A B`: what changed between two eval runs of the same
 * tasks (a new prompt against the old, the agent against the oracle): per
 * task, newly resolved or newly failing, and the cost and turn deltas; a
 * summary line a CI job can gate on (the exit code is 1 when a task that A
 * resolved, B does not).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { RegreenError } from '../errors.ts';
import { readNamedFile } from '../util/read-file.ts';
import { barChart, escapeHtml, htmlPage, icon, type IconName } from '../observe/html.ts';
import { statusWords, taskStatus } from './report-html.ts';
import type { EvalReport, TaskResult } from './types.ts';

export type Change =
  | 'newly resolved'
  | 'newly failing'
  | 'still resolved'
  | 'still failing'
  | 'only in A'
  | 'only in B';

export interface TaskComparison {
  readonly id: string;
  readonly before?: TaskResult;
  readonly after?: TaskResult;
  readonly change: Change;
  readonly costDeltaUsd: number;
  readonly turnsDelta: number;
}

export interface Comparison {
  readonly a: { readonly label: string; readonly report: EvalReport };
  readonly b: { readonly label: string; readonly report: EvalReport };
  readonly tasks: readonly TaskComparison[];
  readonly counts: Readonly<Record<Change, number>>;
  readonly costDeltaUsd: number;
  readonly turnsDelta: number;
  /** B lost a task A resolved: what a CI job fails on. */
  readonly regressed: boolean;
}

const cost = (t: TaskResult | undefined): number => t?.spend?.costUsd ?? 0;
const turns = (t: TaskResult | undefined): number => t?.spend?.turns ?? 0;

export const compareReports = (
  a: { label: string; report: EvalReport },
  b: { label: string; report: EvalReport },
): Comparison => {
  const before = new Map(a.report.tasks.map((t) => [t.id, t]));
  const after = new Map(b.report.tasks.map((t) => [t.id, t]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  const tasks = ids.map((id): TaskComparison => {
    const x = before.get(id);
    const y = after.get(id);
    const change: Change = !x
      ? 'only in B'
      : !y
        ? 'only in A'
        : y.resolved && !x.resolved
          ? 'newly resolved'
          : x.resolved && !y.resolved
            ? 'newly failing'
            : y.resolved
              ? 'still resolved'
              : 'still failing';
    return {
      id,
      ...(x ? { before: x } : {}),
      ...(y ? { after: y } : {}),
      change,
      costDeltaUsd: x && y ? cost(y) - cost(x) : 0,
      turnsDelta: x && y ? turns(y) - turns(x) : 0,
    };
  });
  const counts = Object.fromEntries(
    (
      [
        'newly resolved',
        'newly failing',
        'still resolved',
        'still failing',
        'only in A',
        'only in B',
      ] as const
    ).map((c) => [c, tasks.filter((t) => t.change === c).length]),
  ) as Record<Change, number>;
  return {
    a,
    b,
    tasks,
    counts,
    costDeltaUsd: tasks.reduce((sum, t) => sum + t.costDeltaUsd, 0),
    turnsDelta: tasks.reduce((sum, t) => sum + t.turnsDelta, 0),
    // A task B no longer ran is not a task B still resolves: dropping one is a regression too.
    regressed: counts['newly failing'] > 0 || counts['only in A'] > 0,
  };
};

const signed = (n: number, digits = 0): string =>
  `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n).toFixed(digits)}`;

/** The one line a CI log shows (and a job can grep). */
export const comparisonLine = (c: Comparison): string =>
  `compare: ${c.counts['newly resolved']} newly resolved, ${c.counts['newly failing']} newly failing, ${c.counts['still resolved']} still resolved, ${c.counts['still failing']} still failing${c.counts['only in A'] + c.counts['only in B'] > 0 ? `, ${c.counts['only in A']} only in A, ${c.counts['only in B']} only in B` : ''}; resolved ${c.a.report.summary.resolved} → ${c.b.report.summary.resolved}; cost ${signed(c.costDeltaUsd, 4)} USD; turns ${signed(c.turnsDelta)}`;

export const comparisonText = (c: Comparison): string => {
  const width = Math.max(4, ...c.tasks.map((t) => t.id.length));
  const rows = c.tasks.map(
    (t) =>
      `${t.id.padEnd(width)}  ${t.change.padEnd(14)}  cost ${signed(t.costDeltaUsd, 4).padStart(9)}  turns ${signed(t.turnsDelta).padStart(4)}`,
  );
  return [
    `A: ${c.a.label} (policy ${c.a.report.policy}${c.a.report.model ? `, ${c.a.report.model}` : ''})`,
    `B: ${c.b.label} (policy ${c.b.report.policy}${c.b.report.model ? `, ${c.b.report.model}` : ''})`,
    '',
    ...rows,
    '',
    comparisonLine(c),
  ].join('\n');
};

const changeIcon = (change: Change): IconName =>
  change === 'newly resolved' || change === 'still resolved'
    ? 'pass'
    : change === 'newly failing' || change === 'still failing'
      ? 'fail'
      : 'skip';

const cell = (t: TaskResult | undefined): string =>
  t ? `${icon(taskStatus(t), statusWords(t))}${escapeHtml(statusWords(t))}` : '—';

const CHART: readonly (readonly [Change, string])[] = [
  ['newly resolved', '#1a7f37'],
  ['newly failing', '#cf222e'],
  ['still resolved', '#8ec5a0'],
  ['still failing', '#e8a3a3'],
];

export const comparisonHtml = (c: Comparison): string => {
  const rows = c.tasks
    .map(
      (t) =>
        `<tr data-change="${escapeHtml(t.change)}"><td>${escapeHtml(t.id)}</td><td>${cell(t.before)}</td><td>${cell(t.after)}</td><td>${icon(changeIcon(t.change), t.change)}<span class="${t.change === 'newly resolved' ? 'up' : t.change === 'newly failing' ? 'down' : ''}">${escapeHtml(t.change)}</span></td><td>${signed(t.costDeltaUsd, 4)}</td><td>${signed(t.turnsDelta)}</td></tr>`,
    )
    .join('\n');
  return htmlPage(
    'regreen eval compare',
    `<h1>regreen eval — A against B</h1>
<p>A: ${escapeHtml(c.a.label)} (policy ${escapeHtml(c.a.report.policy)}) · B: ${escapeHtml(c.b.label)} (policy ${escapeHtml(c.b.report.policy)})</p>
<p id="summary">${escapeHtml(comparisonLine(c))}</p>
${barChart(
  'changes',
  CHART.map(([change, colour]) => ({
    label: change,
    value: c.counts[change],
    text: String(c.counts[change]),
    colour,
  })),
)}
<table id="changes"><tr><th>task</th><th>A</th><th>B</th><th>change</th><th>cost Δ (USD)</th><th>turns Δ</th></tr>
${rows}</table>`,
  );
};

const ReportFile = z.looseObject({
  policy: z.string(),
  tasks: z.array(z.looseObject({ id: z.string(), resolved: z.boolean() })),
  summary: z.looseObject({ total: z.number(), resolved: z.number() }),
});

/** A report.json (or the out dir holding one); anything else is a clear usage error. */
export const readReport = (where: string): EvalReport => {
  const file =
    existsSync(where) && statSync(where).isDirectory() ? path.join(where, 'report.json') : where;
  const text = readNamedFile(file, 'the eval report');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RegreenError('usage', `${file}: not a report.json (${(error as Error).message})`);
  }
  const parsed = ReportFile.safeParse(raw);
  if (!parsed.success)
    throw new RegreenError(
      'usage',
      `${file}: not an eval report (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''})`,
    );
  return raw as EvalReport;
};
