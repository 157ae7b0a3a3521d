import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { reportHtml } from './report-html.ts';

import type { EvalReport, EvalRunOptions, TaskResult } from './types.ts';

/** Writes report.json, report.md and report.html for what has finished so far. */
export const writeReport = (
  options: EvalRunOptions,
  finished: readonly TaskResult[],
  started: number,
): EvalReport => {
  const resolved = finished.filter((r) => r.resolved).length;
  const report: EvalReport = {
    policy: options.policy,
    ...(options.model ? { model: options.model } : {}),
    tasks: finished,
    summary: {
      total: finished.length,
      resolved,
      resolvedDrafts: finished.filter((r) => r.resolved && r.draft).length,
      rate: finished.length > 0 ? resolved / finished.length : 0,
      falseFixes: finished.filter((r) => r.falseFix).length,
      errors: finished.filter((r) => r.error).length,
      costUsd: finished.reduce((sum, r) => sum + (r.spend?.costUsd ?? 0), 0),
      wallMs: Date.now() - started,
    },
  };
  writeFileSync(path.join(options.outDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(options.outDir, 'report.md'), reportMarkdown(report));
  writeFileSync(
    path.join(options.outDir, 'report.html'),
    reportHtml(report, options.tasks.length, options.tasks),
  );
  return report;
};

export const reportMarkdown = (report: EvalReport): string => {
  const s = report.summary;
  const rows = report.tasks.map(
    (t) =>
      `| ${t.id} | ${t.kind} | ${t.error ? 'error' : t.resolved ? (t.draft ? '✅ resolved, edits tests (draft)' : '✅ resolved') : '❌'} | ${t.outcome ?? '—'} | ${t.falseFix ? 'yes' : ''} | ${t.checksFired.join(', ')} | ${t.diffLines} / ${t.goldLines} | ${t.outsideGold.join(', ')} | ${t.spend?.turns ?? 0} | ${t.testRuns} | ${t.failedEdits} | $${(t.spend?.costUsd ?? 0).toFixed(4)} | ${(t.wallMs / 1000).toFixed(1)}s |`,
  );
  return [
    `# regreen eval — policy ${report.policy}${report.model ? `, model ${report.model}` : ''}`,
    '',
    `Resolved ${s.resolved} of ${s.total} (${(s.rate * 100).toFixed(1)}%)${(s.resolvedDrafts ?? 0) > 0 ? `, ${s.resolvedDrafts} of them as drafts (resolved, edits tests)` : ''}; false fixes ${s.falseFixes}; harness errors ${s.errors}; cost $${s.costUsd.toFixed(4)}; ${(s.wallMs / 1000).toFixed(1)}s.`,
    '',
    '| task | kind | result | outcome | false fix | checks fired | diff / gold lines | outside gold | turns | test runs | failed edits | cost | time |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...report.tasks
      .filter((t) => t.error || !t.resolved)
      .map((t) =>
        [
          `## ${t.id}`,
          t.error ? `Harness error: ${t.error}` : `Outcome ${t.outcome ?? '?'}: ${t.reason ?? ''}`,
          ...[...t.failToPass, ...t.passToPass]
            .filter((c) => !c.ok)
            .map(
              (c) =>
                `- \`${c.command}\` exit ${c.exitCode ?? 'killed'}\n\n\`\`\`\n${c.tail}\n\`\`\``,
            ),
        ].join('\n\n'),
      ),
  ].join('\n');
};
