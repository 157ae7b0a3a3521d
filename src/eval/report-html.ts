import { readFileSync } from 'node:fs';
import { trajectoryOfFile } from '../observe/trace-read.ts';
import { escapeHtml, htmlPage, runSection } from '../observe/html.ts';
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

const trajectory = trajectoryOfFile;

/** A bar per outcome: resolved, unresolved, false fix, harness error. */
const chart = (tasks: readonly TaskResult[]): string => {
  const bars: [string, number, string][] = [
    ['resolved', tasks.filter((t) => t.resolved).length, '#2da44e'],
    ['unresolved', tasks.filter((t) => !t.resolved && !t.error && !t.falseFix).length, '#cf222e'],
    ['false fix', tasks.filter((t) => t.falseFix).length, '#bf8700'],
    ['harness error', tasks.filter((t) => t.error).length, '#6e7781'],
  ];
  const max = Math.max(1, ...bars.map(([, n]) => n));
  return `<svg width="420" height="${bars.length * 28}" role="img" aria-label="outcomes">${bars
    .map(
      ([label, n, colour], i) =>
        `<text x="0" y="${i * 28 + 18}" font-size="13">${label}</text><rect x="110" y="${i * 28 + 4}" width="${Math.round((n / max) * 260)}" height="18" fill="${colour}"/><text x="${118 + Math.round((n / max) * 260)}" y="${i * 28 + 18}" font-size="13">${n}</text>`,
    )
    .join('')}</svg>`;
};

const checksList = (t: TaskResult): string =>
  [
    ...t.failToPass.map((c) => ['fail_to_pass', c] as const),
    ...t.passToPass.map((c) => ['pass_to_pass', c] as const),
  ]
    .map(
      ([kind, c]) =>
        `<li>${c.ok ? '✅' : '❌'} ${kind} <code>${escape(c.command)}</code> (exit ${c.exitCode ?? 'killed'})${c.ok ? '' : `<pre>${escape(c.tail)}</pre>`}</li>`,
    )
    .join('');

/** The eval report as one self-contained page: summary, a chart of outcomes, and each task's diff, checks and trajectory. */
export const reportHtml = (report: EvalReport, planned: number): string => {
  const s = report.summary;
  const rows = report.tasks
    .map(
      (t) =>
        `<tr><td><a href="#${escape(t.id)}">${escape(t.id)}</a></td><td>${t.kind}</td><td>${t.error ? 'harness error' : t.resolved ? '✅ resolved' : '❌'}</td><td>${escape(t.outcome ?? '—')}</td><td>${t.falseFix ? 'yes' : ''}</td><td>${escape(t.checksFired.join(', '))}</td><td>${t.diffLines} / ${t.goldLines}</td><td>${t.spend?.turns ?? 0}</td><td>$${(t.spend?.costUsd ?? 0).toFixed(4)}</td><td>${(t.wallMs / 1000).toFixed(1)} s</td></tr>`,
    )
    .join('\n');
  const sections = report.tasks
    .map((t) =>
      runSection({
        id: t.id,
        heading: `${t.id} — ${t.error ? 'harness error' : t.resolved ? 'resolved' : 'not resolved'}`,
        summary: t.error ?? `outcome ${t.outcome ?? '?'}${t.reason ? `: ${t.reason}` : ''}`,
        items: checksList(t),
        diff: {
          label: `diff (${t.diffLines} changed lines${t.outsideGold.length > 0 ? `; outside the gold patch: ${t.outsideGold.join(', ')}` : ''})`,
          text: readBounded(t.changePath),
        },
        trajectory: trajectory(t.tracePath),
      }),
    )
    .join('\n');
  return htmlPage(
    `regreen eval — ${report.policy}`,
    `<h1>regreen eval — policy ${escape(report.policy)}${report.model ? `, model ${escape(report.model)}` : ''}</h1>
<p>Resolved <b>${s.resolved}</b> of ${s.total}${planned > s.total ? ` (of ${planned} planned: the run was cut short)` : ''} — ${(s.rate * 100).toFixed(1)}%; false fixes ${s.falseFixes}; harness errors ${s.errors}; cost $${s.costUsd.toFixed(4)}; ${(s.wallMs / 1000).toFixed(1)} s.</p>
${chart(report.tasks)}
<table><tr><th>task</th><th>kind</th><th>result</th><th>outcome</th><th>false fix</th><th>checks fired</th><th>diff / gold</th><th>turns</th><th>cost</th><th>time</th></tr>
${rows}</table>
${sections}`,
  );
};
