/** Small HTML helpers shared by the eval report and the jobs page: one look, one escaping rule. */
export const escapeHtml = (text: string): string =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

const STYLE =
  'body{font:14px system-ui,sans-serif;margin:2rem;max-width:1100px}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left}pre{background:#f6f8fa;padding:8px;overflow:auto;max-height:480px}';

export const htmlPage = (title: string, body: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head>
<body>${body}
</body></html>
`;

/** One run (an eval task, a job): heading, a line of what happened, its checks, its diff and its trajectory. */
export const runSection = (run: {
  id: string;
  heading: string;
  summary: string;
  /** Already-rendered list items. */
  items?: string;
  diff?: { label: string; text: string };
  trajectory: string;
}): string => `<section id="${escapeHtml(run.id)}"><h2>${escapeHtml(run.heading)}</h2>
<p>${escapeHtml(run.summary)}</p>
${run.items ? `<ul>${run.items}</ul>` : ''}
${run.diff ? `<details><summary>${escapeHtml(run.diff.label)}</summary><pre>${escapeHtml(run.diff.text) || '(no change)'}</pre></details>` : ''}
<details open><summary>trajectory</summary><pre class="trajectory">${escapeHtml(run.trajectory) || '(no trace)'}</pre></details></section>`;
