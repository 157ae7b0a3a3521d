import type { ParsedDiff } from '../../checks/diff.ts';
import type { CheckResult } from '../../checks/types.ts';
import { redactSecrets } from '../util/secrets.ts';
import { stripAnsi, tailLines } from '../util/text.ts';

const cell = (text: string): string => text.split('\n')[0]?.replaceAll('|', '\\|') ?? '';

export const checksTable = (checks: readonly CheckResult[]): string =>
  [
    '| check | result | detail |',
    '|---|---|---|',
    ...checks.map((c) => `| ${c.name} | ${c.ok ? '✅ pass' : '❌ fail'} | ${cell(c.detail)} |`),
  ].join('\n');

export const diffStats = (diff: ParsedDiff): string =>
  diff.files
    .map(
      (file) =>
        `- \`${file.path}\` (${file.status}, +${file.added.length} −${file.removed.length})`,
    )
    .join('\n');

/** The pull request text: plan, summary, diff stats, checks, the end of the passing run. Secrets redacted. */
export const prText = (options: {
  command: string;
  fixedBy: string;
  plan: string;
  summary: string;
  diff: ParsedDiff;
  checks: readonly CheckResult[];
  testOutput: string;
  fingerprint: string;
}): { title: string; body: string } => {
  const title =
    options.fixedBy === 'agent'
      ? `fix: make \`${options.command.split('\n')[0]}\` pass`
      : `fix: ${options.fixedBy} for \`${options.command.split('\n')[0]}\``;
  const body = [
    `regreen reproduced a failure of \`${options.command}\` and proposes this fix (fingerprint \`${options.fingerprint}\`, fixed by ${options.fixedBy}).`,
    options.plan ? `## Plan\n\n${options.plan}` : '',
    options.summary && options.summary !== options.plan ? `## Summary\n\n${options.summary}` : '',
    `## Changes\n\n${diffStats(options.diff)}\n\n${options.diff.files.length} file(s), ${options.diff.changedLines} changed line(s).`,
    `## Checks\n\n${checksTable(options.checks)}`,
    `## Test output (fresh sandbox, end)\n\n\`\`\`\n${tailLines(stripAnsi(options.testOutput).trimEnd(), 30)}\n\`\`\``,
  ]
    .filter(Boolean)
    .join('\n\n');
  return { title: redactSecrets(title), body: redactSecrets(body) };
};

/** The text of a diagnosis: why no fix is proposed, what was checked, and what it cost. */
export const diagnosisText = (options: {
  reason: string;
  fingerprint: string | undefined;
  checks: readonly CheckResult[];
  spendUsd?: number;
}): { title: string; body: string } => {
  const body = [
    `regreen reproduced this failure but proposes no fix: ${options.reason}`,
    options.checks.length > 0 ? `## Checks\n\n${checksTable(options.checks)}` : '',
    options.fingerprint ? `Fingerprint: \`${options.fingerprint}\`.` : '',
    options.spendUsd !== undefined ? `Model spend: $${options.spendUsd.toFixed(4)}.` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return { title: 'regreen: no fix proposed', body: redactSecrets(body) };
};
