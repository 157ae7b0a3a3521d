import type { AskedQuestion } from '../questions/card.ts';
import type { ParsedDiff } from '../../checks/diff.ts';
import type { CheckResult } from '../../checks/types.ts';
import { redactSecrets } from '../util/secrets.ts';
import { fixTitle } from './pr-title.ts';
import type { FailureSummary } from './failure-summary.ts';
import { stripAnsi, tailLines } from '../util/text.ts';
import type { SandboxKind } from '../workspace/sandbox/sandbox.ts';

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

/**
 * The line of a command that says what it runs: a replayed CI step starts
 * with its environment, its directory and the toolchain's PATH.
 */
export const commandHeadline = (command: string): string => {
  const lines = command.split('\n').map((line) => line.trim());
  return (
    lines.find((line) => line !== '' && !/^(export [\w]+=|cd |\[ ! -f |set -e$|#)/.test(line)) ??
    lines[0] ??
    ''
  );
};

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
  /** How the reproduction compares with CI's failure, in a sentence. */
  reproduction?: string;
  /** The test command's run with the tests the change adds or edits (they took no part in the verdict). */
  changeTestsOutput?: string;
  /** Where the fresh check ran: a run with no sandbox is never said to have been in one. */
  sandboxKind: SandboxKind;
  /** The failing tests the run named: the title names them. */
  tests?: readonly string[];
  /** A draft: what a person must look at before it may be taken (each a line). */
  needsPerson?: readonly string[];
}): { title: string; body: string } => {
  const fix = fixTitle({
    command: commandHeadline(options.command),
    fixedBy: options.fixedBy,
    tests: options.tests ?? [],
    diff: options.diff,
  });
  const title = options.needsPerson ? `[needs a person] ${fix}` : fix;
  const body = [
    `regreen reproduced a failure of \`${options.command}\` and proposes this fix (fingerprint \`${options.fingerprint}\`, fixed by ${options.fixedBy}).`,
    options.needsPerson ? needsPersonSection(options.needsPerson) : '',
    options.reproduction ? `**Reproduction:** ${options.reproduction}` : '',
    options.sandboxKind === 'none'
      ? '**No sandbox:** the failure, the fix and the checks ran on the host, with no sandbox (`--sandbox none`).'
      : '',
    options.plan ? `## Plan\n\n${options.plan}` : '',
    options.summary && options.summary !== options.plan ? `## Summary\n\n${options.summary}` : '',
    `## Changes\n\n${diffStats(options.diff)}\n\n${options.diff.files.length} file(s), ${options.diff.changedLines} changed line(s).`,
    `## Checks\n\n${checksTable(options.checks)}`,
    questionsSection(options.questions ?? []),
    `## Test output (${options.sandboxKind === 'none' ? 'fresh clone, on the host with no sandbox' : 'fresh clone and sandbox'}, end)\n\n\`\`\`\n${tailLines(stripAnsi(options.testOutput).trimEnd(), 30)}\n\`\`\``,
    options.changeTestsOutput === undefined
      ? ''
      : `## The tests this change adds (run after the verdict, which the base's tests gave)\n\n\`\`\`\n${tailLines(stripAnsi(options.changeTestsOutput).trimEnd(), 20)}\n\`\`\``,
  ]
    .filter(Boolean)
    .join('\n\n');
  return { title: redactSecrets(title), body: redactSecrets(body) };
};

/** The marker a draft's text opens its section with: what the local forge and the eval read. */
export const NEEDS_PERSON = '## Needs a person (draft)';

/** Why a draft is one, and every line a person must confirm. */
const needsPersonSection = (lines: readonly string[]): string =>
  `${NEEDS_PERSON}\n\nThe checks would not propose this change on their own: it passes CI's failing test, but a person must confirm what is listed below before it is taken.\n\n${lines.map((line) => `- ${line}`).join('\n')}`;

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

const html = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Two excerpts in two columns (GitHub renders the table; a file reader sees both blocks). */
const sideBySide = (comparison: { ci: string; here: string; why: string }): string =>
  [
    comparison.why,
    '',
    '<table><tr><th>CI</th><th>regreen’s run</th></tr><tr>',
    `<td valign="top"><pre>${html(stripAnsi(comparison.ci))}</pre></td>`,
    `<td valign="top"><pre>${html(stripAnsi(comparison.here))}</pre></td>`,
    '</tr></table>',
  ].join('\n');

const details = (summary: string, body: string): string =>
  `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;

/**
 * The text of a diagnosis, for a maintainer to act on: a summary first (what
 * failed, why nothing is proposed, what to do next), then the details
 * collapsed — the error as it was printed, what was tried, the checks, the
 * spend. The same text is the local file and the comment on GitHub.
 */
export const diagnosisText = (options: {
  reason: string;
  fingerprint: string | undefined;
  checks: readonly CheckResult[];
  spendUsd?: number;
  failure?: FailureSummary;
  nextSteps?: readonly string[];
}): { title: string; body: string } => {
  const failure = options.failure;
  const failing = failure
    ? [
        failure.tests.length > 0
          ? `**Failing:** ${failure.tests
              .slice(0, 8)
              .map((test) => `\`${test}\``)
              .join(
                ', ',
              )}${failure.tests.length > 8 ? `, and ${failure.tests.length - 8} more` : ''}`
          : '',
        failure.locations.length > 0
          ? `**Where:**\n${failure.locations
              .slice(0, 5)
              .map((location) => `- \`${location}\``)
              .join('\n')}`
          : '',
      ]
        .filter(Boolean)
        .join('\n\n')
    : '';
  const body = [
    failure?.neverRan
      ? `\`${failure.command}\` failed (exit ${failure.exitCode ?? 'killed'}) before its runner ran, so the failure was not reproduced and no fix is proposed: ${options.reason.replace(/^could not reproduce: /, '')}`
      : failure?.setup
        ? `regreen's set-up \`${failure.command}\` failed (exit ${failure.exitCode ?? 'killed'}), so the failure was not reproduced and no fix is proposed: ${options.reason.replace(/^could not reproduce: /, '')}`
        : failure
          ? `regreen reproduced \`${failure.command}\` failing (exit ${failure.exitCode ?? 'killed'}) but proposes no fix: ${options.reason}`
          : `regreen reproduced this failure but proposes no fix: ${options.reason}`,
    failing,
    options.nextSteps && options.nextSteps.length > 0
      ? `**Next steps**\n${options.nextSteps.map((step) => `- ${step}`).join('\n')}`
      : '',
    failure
      ? details(
          'What failed',
          `\`${failure.command}\` in ${failure.where}:\n\n\`\`\`text\n${failure.excerpt.replaceAll('```', "'''")}\n\`\`\``,
        )
      : '',
    failure?.comparison
      ? details("CI's failure beside the reproduction", sideBySide(failure.comparison))
      : '',
    failure?.environment && failure.environment.length > 0
      ? details('How CI was replayed', failure.environment.map((line) => `- ${line}`).join('\n'))
      : '',
    failure && failure.tried.length > 0
      ? details('What was tried', failure.tried.map((line) => `- ${line}`).join('\n'))
      : '',
    options.checks.length > 0 ? `## Checks\n\n${checksTable(options.checks)}` : '',
    options.fingerprint ? `Fingerprint: \`${options.fingerprint}\`.` : '',
    options.spendUsd !== undefined ? `Model spend: $${options.spendUsd.toFixed(4)}.` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return { title: 'regreen: no fix proposed', body: redactSecrets(body) };
};
