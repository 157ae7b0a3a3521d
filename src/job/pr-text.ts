import type { AskedQuestion } from '../../tools/ask/index.ts';
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
  questions?: readonly AskedQuestion[];
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
    questionsSection(options.questions ?? []),
    `## Test output (fresh sandbox, end)\n\n\`\`\`\n${tailLines(stripAnsi(options.testOutput).trimEnd(), 30)}\n\`\`\``,
  ]
    .filter(Boolean)
    .join('\n\n');
  return { title: redactSecrets(title), body: redactSecrets(body) };
};

const when = (at: number): string => new Date(at).toISOString().replace('T', ' ').slice(0, 16);

/** Every question the job asked: who answered what, and when (or that no one did). */
export const questionsSection = (questions: readonly AskedQuestion[]): string => {
  if (questions.length === 0) return '';
  const rows = questions.map((q) => {
    const a = q.answer;
    const answer =
      a.kind === 'answer'
        ? `@${a.by} at ${when(a.at)}: ${[...a.labels, ...(a.text ? [`“${a.text.replace(/\s+/g, ' ').slice(0, 200)}”`] : [])].join(', ')}`
        : a.kind === 'skip'
          ? `skipped by @${a.by} at ${when(a.at)}`
          : `no answer by ${when(a.at)}`;
    return `- ${q.kind === 'permission' ? '🔐' : '❓'} ${cell(q.question)} (asked ${when(q.askedAt)}) — ${answer}`;
  });
  return `## Questions asked\n\n${rows.join('\n')}`;
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
