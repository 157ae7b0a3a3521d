import { readFileSync } from 'node:fs';
import {
  barChart,
  escapeHtml,
  htmlPage,
  icon,
  runSection,
  sideBySide,
  type IconName,
} from '../observe/html.ts';
import { readTrace, trajectoryOfTrace, workspaceOfTrace } from '../observe/trace-read.ts';
import type { EvalTask } from './tasks.ts';
import type { EvalReport, TaskResult } from './types.ts';

const escape = escapeHtml;

const readBounded = (file: string | undefined, max = 200_000): string => {
  if (!file) return '';
  try {
    const text = readFileSync(file, 'utf8');
    return text.length > max
      ? `${text.slice(0, max)}\n[… ${text.length - max} characters cut]`
      : text;
  } catch {
    return '';
  }
};

export const taskStatus = (t: TaskResult): IconName =>
  t.error ? 'error' : t.resolved ? 'pass' : t.falseFix ? 'warn' : 'fail';

export const statusWords = (t: TaskResult): string =>
  t.error ? 'harness error' : t.resolved ? 'resolved' : t.falseFix ? 'false fix' : 'not resolved';

/** Outcomes, then cost and turns per task: the charts a person scans first. */
const charts = (tasks: readonly TaskResult[]): string => {
  const count = (name: IconName): number => tasks.filter((t) => taskStatus(t) === name).length;
  return [
    barChart('outcomes', [
      { label: 'resolved', value: count('pass'), text: String(count('pass')), colour: '#1a7f37' },
      {
        label: 'not resolved',
        value: count('fail'),
        text: String(count('fail')),
        colour: '#cf222e',
      },
      { label: 'false fix', value: count('warn'), text: String(count('warn')), colour: '#bf8700' },
      {
        label: 'harness error',
        value: count('error'),
        text: String(count('error')),
        colour: '#6e7781',
      },
    ]),
    barChart(
      'cost per task',
      tasks.map((t) => ({
        label: t.id,
        value: t.spend?.costUsd ?? 0,
        text: `$${(t.spend?.costUsd ?? 0).toFixed(4)}`,
      })),
    ),
    barChart(
      'turns per task',
      tasks.map((t) => ({
        label: t.id,
        value: t.spend?.turns ?? 0,
        text: String(t.spend?.turns ?? 0),
      })),
    ),
  ].join('');
};

const checkRows = (t: TaskResult): string =>
  [
    ...t.failToPass.map((c) => ['fail_to_pass', c] as const),
    ...t.passToPass.map((c) => ['pass_to_pass', c] as const),
  ]
    .map(
      ([kind, c]) =>
        `<tr><td>${icon(c.ok ? 'pass' : 'fail', c.ok ? 'passed' : 'failed')}</td><td>${kind}</td><td><code>${escape(c.command)}</code>${c.ok ? '' : `<details><summary>output</summary><pre>${escape(c.tail)}</pre></details>`}</td><td>${c.exitCode ?? 'killed'}</td></tr>`,
    )
    .join('');

/** The eval report as one self-contained page: summary, charts, a table, and per task its checks, the gold and the produced diff side by side, and its trajectory. */
export const reportHtml = (
  report: EvalReport,
  planned: number,
  tasks: readonly EvalTask[] = [],
): string => {
  const s = report.summary;
  const gold = new Map(tasks.map((task) => [task.id, task.gold_patch]));
  const rows = report.tasks
    .map(
      (t) =>
        `<tr><td><a href="#${escape(t.id)}">${escape(t.id)}</a></td><td>${t.kind}</td><td>${icon(taskStatus(t), statusWords(t))}${statusWords(t)}</td><td>${escape(t.outcome ?? '—')}</td><td>${escape(t.checksFired.join(', '))}</td><td>${t.diffLines} / ${t.goldLines}</td><td>${t.spend?.turns ?? 0}</td><td>$${(t.spend?.costUsd ?? 0).toFixed(4)}</td><td>${(t.wallMs / 1000).toFixed(1)} s</td></tr>`,
    )
    .join('\n');
  const sections = report.tasks
    .map((t) =>
      runSection({
        id: t.id,
        heading: `${t.id} — ${statusWords(t)}`,
        status: taskStatus(t),
        summary: t.error ?? `outcome ${t.outcome ?? '?'}${t.reason ? `: ${t.reason}` : ''}`,
        checks: checkRows(t),
        diffs: sideBySide(
          { label: `the person's fix (${t.goldLines} lines)`, text: gold.get(t.id) ?? '' },
          {
            label: `regreen's change (${t.diffLines} lines${t.outsideGold.length > 0 ? `; outside the gold patch: ${t.outsideGold.join(', ')}` : ''})`,
            text: readBounded(t.changePath),
          },
        ),
        trajectory: ((text) => ({
          ...trajectoryOfTrace(text),
          workspace: workspaceOfTrace(t.tracePath, text),
        }))(readTrace(t.tracePath)),
      }),
    )
    .join('\n');
  return htmlPage(
    `regreen eval — ${report.policy}`,
    `<h1>regreen eval — policy ${escape(report.policy)}${report.model ? `, model ${escape(report.model)}` : ''}</h1>
<p>Resolved <b>${s.resolved}</b> of ${s.total}${planned > s.total ? ` (of ${planned} planned: the run was cut short)` : ''} — ${(s.rate * 100).toFixed(1)}%; false fixes ${s.falseFixes}; harness errors ${s.errors}; cost $${s.costUsd.toFixed(4)}; ${(s.wallMs / 1000).toFixed(1)} s.</p>
${charts(report.tasks)}
<table id="tasks"><tr><th>task</th><th>kind</th><th>result</th><th>outcome</th><th>checks fired</th><th>diff / gold</th><th>turns</th><th>cost</th><th>time</th></tr>
${rows}</table>
${sections}`,
  );
};
