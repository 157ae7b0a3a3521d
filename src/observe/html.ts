/**
 * The one renderer of regreen's pages (the eval report, the comparison of two
 * reports, the jobs page): one look, one escaping rule, icons as inline SVG
 * (no font glyphs that render as boxes), collapsible sections without script
 * (the jobs page's policy allows none), coloured diffs, small SVG charts.
 */
import type { TraceCall, TraceStep } from './trace-read.ts';

export const escapeHtml = (text: string): string =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

const escape = escapeHtml;

const STYLE = [
  'body{font:14px system-ui,sans-serif;margin:2rem;max-width:1200px;color:#1f2328}',
  'table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}',
  'pre{background:#f6f8fa;padding:8px;overflow:auto;max-height:480px;margin:4px 0}',
  'details{margin:4px 0}summary{cursor:pointer}',
  '.icon{width:14px;height:14px;vertical-align:-2px;margin-right:4px}',
  '.turn{border-left:3px solid #d0d7de;padding-left:8px}.turn>summary{font-weight:600}',
  '.call{margin-left:12px}.model-text{white-space:pre-wrap}',
  '.diff .add{background:#dafbe1;display:block}.diff .del{background:#ffebe9;display:block}.diff .hunk{color:#8250df;display:block}.diff .file{font-weight:600;display:block}',
  '.sides{display:grid;grid-template-columns:1fr 1fr;gap:12px}.sides>div{min-width:0}',
  '.up{color:#1a7f37}.down{color:#cf222e}',
].join('');

export const htmlPage = (title: string, body: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>${STYLE}</style></head>
<body>${body}
</body></html>
`;

export type IconName = 'pass' | 'fail' | 'warn' | 'error' | 'skip';

const ICONS: Readonly<Record<IconName, { colour: string; path: string }>> = {
  pass: { colour: '#1a7f37', path: 'M4 8.5l2.5 2.5L12 5.5' },
  fail: { colour: '#cf222e', path: 'M5 5l6 6M11 5l-6 6' },
  warn: { colour: '#bf8700', path: 'M8 4v5M8 11.5v.5' },
  error: { colour: '#6e7781', path: 'M8 4v5M8 11.5v.5' },
  skip: { colour: '#6e7781', path: 'M5 8h6' },
};

/** A small round icon with its meaning as an accessible label. */
export const icon = (name: IconName, label: string = name): string => {
  const { colour, path } = ICONS[name];
  return `<svg class="icon" viewBox="0 0 16 16" role="img" aria-label="${escape(label)}"><circle cx="8" cy="8" r="7.5" fill="${colour}"/><path d="${path}" stroke="#fff" stroke-width="2" stroke-linecap="round" fill="none"/></svg>`;
};

/** A unified diff with added, removed and hunk lines coloured. */
export const diffHtml = (text: string): string => {
  if (!text.trim()) return '<pre class="diff">(no change)</pre>';
  const lines = text.split('\n').map((line) => {
    const cls = /^(?:\+\+\+|---|diff --git|index )/.test(line)
      ? 'file'
      : line.startsWith('@@')
        ? 'hunk'
        : line.startsWith('+')
          ? 'add'
          : line.startsWith('-')
            ? 'del'
            : '';
    return cls ? `<span class="${cls}">${escape(line)}</span>` : `${escape(line)}\n`;
  });
  return `<pre class="diff">${lines.join('')}</pre>`;
};

/** Two diffs side by side (the person's fix and regreen's). */
export const sideBySide = (
  left: { label: string; text: string },
  right: { label: string; text: string },
): string =>
  `<div class="sides"><div><h4>${escape(left.label)}</h4>${diffHtml(left.text)}</div><div><h4>${escape(right.label)}</h4>${diffHtml(right.text)}</div></div>`;

const callHtml = (call: TraceCall): string =>
  `<details class="call"><summary>${icon(call.isError ? 'fail' : 'pass', call.isError ? 'the call failed' : 'the call succeeded')}<code>${escape(call.name)}</code> <small>${call.durationMs} ms</small></summary>${call.edit ? diffHtml(call.input) : `<pre>${escape(call.input)}</pre>`}<pre>→ ${escape(call.output)}</pre></details>`;

/** A trajectory as collapsible turns: the model's text, each tool call with input and output. */
export const trajectoryHtml = (trajectory: {
  summary: string;
  steps: readonly TraceStep[];
}): string => {
  if (trajectory.steps.length === 0 && !trajectory.summary) return '<p>(no trace)</p>';
  const steps = trajectory.steps
    .map((step) => {
      const who = step.worker ? `[${escape(step.worker)}] ` : '';
      switch (step.kind) {
        case 'stage':
          return `<p class="stage">${who}${icon(/^(?:error|fail|refused)/i.test(step.outcome) ? 'fail' : 'pass', step.outcome)}stage <b>${escape(step.stage)}</b> (${(step.durationMs / 1000).toFixed(1)} s): ${escape(step.outcome)}</p>`;
        case 'note':
          return `<details class="note"><summary>${who}note: ${escape(step.message)}</summary>${step.data ? `<pre>${escape(step.data)}</pre>` : ''}</details>`;
        case 'turn':
          return `<details class="turn"><summary>${who}turn ${step.turn} — ${escape(step.stopReason || 'tools')}, $${step.costUsd.toFixed(4)}${step.calls.length > 0 ? ` · ${escape(step.calls.map((c) => c.name).join(', '))}` : ''}</summary>${step.text ? `<div class="model-text">${escape(step.text)}</div>` : ''}${step.calls.map(callHtml).join('')}</details>`;
      }
    })
    .join('\n');
  return `${trajectory.summary ? `<details><summary>summary</summary><pre>${escape(trajectory.summary)}</pre></details>` : ''}${steps}`;
};

/** Horizontal bars, one per item, labelled with its value (cost, turns). */
export const barChart = (
  title: string,
  items: readonly { label: string; value: number; text: string; colour?: string }[],
): string => {
  const max = Math.max(1e-9, ...items.map((i) => i.value));
  const height = items.length * 22 + 24;
  return `<figure><svg width="560" height="${height}" role="img" aria-label="${escape(title)}"><text x="0" y="14" font-size="13" font-weight="600">${escape(title)}</text>${items
    .map((item, i) => {
      const y = 24 + i * 22;
      const width = Math.round((item.value / max) * 300);
      return `<text x="0" y="${y + 13}" font-size="12">${escape(item.label.slice(0, 28))}</text><rect x="200" y="${y}" width="${width}" height="16" fill="${item.colour ?? '#0969da'}"/><text x="${206 + width}" y="${y + 13}" font-size="12">${escape(item.text)}</text>`;
    })
    .join('')}</svg></figure>`;
};

/** One run (an eval task, a job): heading, a line of what happened, its checks, its diffs and its trajectory. */
export const runSection = (run: {
  id: string;
  heading: string;
  status: IconName;
  summary: string;
  /** Already-rendered table rows of its checks. */
  checks?: string;
  diffs?: string;
  trajectory: { summary: string; steps: readonly TraceStep[] };
}): string => `<section id="${escape(run.id)}"><h2>${icon(run.status)}${escape(run.heading)}</h2>
<p>${escape(run.summary)}</p>
${run.checks ? `<table class="checks"><tr><th></th><th>check</th><th>command</th><th>exit</th></tr>${run.checks}</table>` : ''}
${run.diffs ? `<details><summary>changes</summary>${run.diffs}</details>` : ''}
<details><summary>trajectory (${run.trajectory.steps.filter((s) => s.kind === 'turn').length} turns)</summary>${trajectoryHtml(run.trajectory)}</details></section>`;
