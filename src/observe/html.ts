/**
 * The one renderer of regreen's pages (the eval report, the comparison of two
 * reports, the jobs page): one look, one escaping rule, icons as inline SVG
 * (no font glyphs that render as boxes), collapsible sections without script
 * (the jobs page's policy allows none), coloured diffs, small SVG charts.
 * Its parts: icons and escaping (`icons.ts`), diffs (`diff-html.ts`),
 * Markdown (`markdown.ts`), tool calls as arguments (`tool-input.ts`), and
 * whether a stage went as it should (`stage-status.ts`).
 */
import { diffHtml } from './diff-html.ts';
import { escapeHtml, icon, textHtml, type IconName } from './icons.ts';
import { markdownHtml } from './markdown.ts';
import { inlineHtml } from './markdown-inline.ts';
import { stageStatus } from './stage-status.ts';
import { toolInputView } from './tool-input.ts';
import type { TraceCall, TraceStep } from './trace-read.ts';

export { diffHtml, escapeHtml, icon, type IconName };

const escape = escapeHtml;

const STYLE = [
  'body{font:14px system-ui,sans-serif;margin:2rem;max-width:1200px;color:#1f2328;line-height:1.45}',
  'table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}',
  'pre{background:#f6f8fa;padding:8px;overflow:auto;max-height:480px;margin:4px 0;border-radius:4px}',
  'code{font:12px ui-monospace,monospace;background:#eff1f3;padding:1px 4px;border-radius:4px}pre code{background:none;padding:0}',
  'details{margin:4px 0}summary{cursor:pointer}',
  '.icon{width:14px;height:14px;vertical-align:-2px;margin-right:4px}',
  '.turn{border-left:3px solid #d0d7de;padding-left:8px}.turn>summary{font-weight:600}',
  '.call{margin-left:12px}.call>summary>code{background:none;font-weight:600}.model-text{margin:4px 0}',
  '.arg{margin-left:6px;color:#57606a}.arg .key,.arg-block .key{color:#57606a}.arg code{color:#1f2328;padding:0 3px}',
  '.command{color:#0a3069}.arg-block{margin:4px 0}.output{border-left:3px solid #d0d7de}',
  '.verdict{font-weight:600}',
  '.diff .add{background:#dafbe1;display:block}.diff .del{background:#ffebe9;display:block}.diff .hunk{color:#8250df;display:block}.diff .file{font-weight:600;display:block}',
  '.sides{display:grid;grid-template-columns:1fr 1fr;gap:12px}.sides>div{min-width:0}',
  '.markdown{max-width:960px}.markdown h3,.markdown h4{margin:16px 0 6px}.markdown p{margin:6px 0}.markdown table.md{margin:8px 0}table.md td:not(:last-child){white-space:nowrap}',
  '.markdown blockquote{margin:6px 0;padding-left:10px;border-left:3px solid #d0d7de;color:#57606a}',
  '.markdown .icon{margin-right:2px}.text{border:1px solid #d0d7de;border-radius:6px;padding:4px 12px}',
  '.up{color:#1a7f37}.down{color:#cf222e}',
].join('');

export const htmlPage = (title: string, body: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>${STYLE}</style></head>
<body>${body}
</body></html>
`;

/** Two diffs side by side (the person's fix and regreen's). */
export const sideBySide = (
  left: { label: string; text: string },
  right: { label: string; text: string },
): string =>
  `<div class="sides"><div><h4>${escape(left.label)}</h4>${diffHtml(left.text)}</div><div><h4>${escape(right.label)}</h4>${diffHtml(right.text)}</div></div>`;

const callHtml = (call: TraceCall, workspace: string | undefined): string => {
  const args = toolInputView(call.name, call.input, workspace);
  return `<details class="call"><summary>${icon(call.isError ? 'fail' : 'pass', call.isError ? 'the call failed' : 'the call succeeded')}<code>${escape(call.name)}</code>${args.line ? ` ${args.line}` : ''} <small>${call.durationMs} ms</small></summary>${args.blocks}<pre class="output">${textHtml(call.output)}</pre></details>`;
};

const stageHtml = (step: Extract<TraceStep, { kind: 'stage' }>): string => {
  const view = stageStatus(step.stage, step.outcome, step);
  return `${icon(view.status, view.verdict ?? step.outcome)}stage <b>${escape(step.stage)}</b> (${(step.durationMs / 1000).toFixed(1)} s): ${view.verdict ? `<span class="verdict">${escape(view.verdict)}</span> — ` : ''}${textHtml(step.outcome)}`;
};

/** What a trajectory shows: its summary and steps, and the workspace its paths are shown relative to. */
export interface Trajectory {
  readonly summary: string;
  readonly steps: readonly TraceStep[];
  readonly workspace?: string | undefined;
}

/** A trajectory as collapsible turns: the model's text, each tool call with input and output. */
export const trajectoryHtml = (trajectory: Trajectory): string => {
  if (trajectory.steps.length === 0 && !trajectory.summary) return '<p>(no trace)</p>';
  const steps = trajectory.steps
    .map((step) => {
      const who = step.worker ? `[${escape(step.worker)}] ` : '';
      switch (step.kind) {
        case 'stage':
          return `<p class="stage" data-status="${stageStatus(step.stage, step.outcome, step).status}">${who}${stageHtml(step)}</p>`;
        case 'note':
          return `<details class="note"><summary>${who}note: ${inlineHtml(step.message)}</summary>${step.data ? `<pre>${textHtml(step.data)}</pre>` : ''}</details>`;
        case 'turn':
          return `<details class="turn"><summary>${who}turn ${step.turn} — ${escape(step.stopReason || 'tools')}, $${step.costUsd.toFixed(4)}${step.calls.length > 0 ? ` · ${escape(step.calls.map((c) => c.name).join(', '))}` : ''}</summary>${step.text ? `<div class="model-text">${markdownHtml(step.text, { headingOffset: 3 })}</div>` : ''}${step.calls.map((call) => callHtml(call, trajectory.workspace)).join('')}</details>`;
      }
    })
    .join('\n');
  return `${trajectory.summary ? `<details><summary>summary</summary><pre>${textHtml(trajectory.summary)}</pre></details>` : ''}${steps}`;
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

/** One run (an eval task, a job): heading, a line of what happened, its text, its checks, its diffs and its trajectory. */
export const runSection = (run: {
  id: string;
  heading: string;
  status: IconName;
  statusLabel?: string;
  summary: string;
  /** Already-rendered text shown open (a pull request's text, a diagnosis). */
  text?: { label: string; html: string };
  /** Already-rendered table rows of its checks. */
  checks?: string;
  diffs?: string;
  trajectory: Trajectory;
}): string => `<section id="${escape(run.id)}"><h2>${icon(run.status, run.statusLabel)}${escape(run.heading)}</h2>
<p>${inlineHtml(run.summary)}</p>
${run.text ? `<details class="text" open><summary>${escape(run.text.label)}</summary>${run.text.html}</details>` : ''}
${run.checks ? `<table class="checks"><tr><th></th><th>check</th><th>command</th><th>exit</th></tr>${run.checks}</table>` : ''}
${run.diffs ? `<details><summary>changes</summary>${run.diffs}</details>` : ''}
<details><summary>trajectory (${run.trajectory.steps.filter((s) => s.kind === 'turn').length} turns)</summary>${trajectoryHtml(run.trajectory)}</details></section>`;
