import path from 'node:path';
import { shellWord } from '../util/text.ts';
import { checksLine, type Outcome } from '../job/outcome.ts';
import type { Spend } from '../agent/ledger.ts';
import type { ErrorCode } from '../errors.ts';

/** Exit codes, documented in the README. */
export const EXIT = {
  proposed: 0,
  diagnosis: 1,
  usage: 2,
  'not-reproduced': 3,
  error: 4,
  /** Only where a job may stop to wait for a person (the App); the CLI asks and waits. */
  suspended: 5,
} as const;

const USAGE_CODES: readonly ErrorCode[] = [
  'usage',
  'config',
  'not-a-repo',
  'ref-not-found',
  'command-not-found',
];

/** The exit code of an error: the user's to fix (usage) or regreen's (error). */
export const exitCodeOfError = (code: ErrorCode): number =>
  USAGE_CODES.includes(code) ? EXIT.usage : EXIT.error;

export const exitCodeOf = (outcome: Outcome): number =>
  outcome.status === 'error' ? exitCodeOfError(outcome.code) : EXIT[outcome.status];

/** The machine-readable outcome of `regreen fix --json`. */
export const outcomeJson = (outcome: Outcome): Record<string, unknown> => {
  const base: Record<string, unknown> = {
    status: outcome.status,
    tracePath: outcome.tracePath,
    spend: outcome.spend,
  };
  switch (outcome.status) {
    case 'proposed':
      return {
        ...base,
        branch: outcome.branch,
        title: outcome.title,
        prTextPath: outcome.prTextPath,
        patchPath: outcome.patchPath,
        repository: outcome.repository,
        // A dry run wrote no file: the PR text and the patch are here.
        ...(outcome.dryRun ? { dryRun: true, prText: outcome.prText, patch: outcome.patch } : {}),
        fixedBy: outcome.fixedBy,
        fingerprint: outcome.fingerprint,
        updated: outcome.updated,
        reproduction: outcome.reproduction,
        changed: outcome.changed,
        baseSha: outcome.baseSha,
        checks: outcome.checks,
        ...(outcome.needsPerson ? { draft: true, needsPerson: outcome.needsPerson } : {}),
      };
    case 'diagnosis':
      return {
        ...base,
        reason: outcome.reason,
        category: outcome.category,
        fingerprint: outcome.fingerprint,
        reportedAt: outcome.reportedAt,
        checks: outcome.checks,
      };
    case 'not-reproduced':
      return {
        ...base,
        reason: outcome.reason,
        command: outcome.command,
        ...(outcome.tried ? { tried: outcome.tried } : {}),
      };
    case 'error':
      // The same `error` object an error before the job prints: one shape for a script to test.
      return {
        ...base,
        reason: outcome.reason,
        code: outcome.code,
        error: { code: outcome.code, message: outcome.reason, exit: exitCodeOf(outcome) },
      };
    case 'suspended':
      return {
        ...base,
        reason: outcome.reason,
        question: outcome.pending.question.question,
        where: outcome.pending.where,
        deadline: new Date(outcome.pending.deadline).toISOString(),
      };
  }
};

const changedLine = (changed: { files: readonly string[]; added: number; removed: number }) => {
  const shown = changed.files.slice(0, 3).join(', ');
  const more = changed.files.length > 3 ? ` and ${changed.files.length - 3} more` : '';
  const count = `${changed.files.length} file${changed.files.length === 1 ? '' : 's'}`;
  return `changed: ${count}, +${changed.added} -${changed.removed}: ${shown}${more}`;
};

/**
 * The outcome for a person reading a terminal: at most ten lines (status,
 * branch, what changed, the checks, spend, where the PR text and the trace
 * are, the next command). The PR text itself only with `--verbose`.
 */
export const outcomeText = (
  outcome: Outcome,
  options: { verbose?: boolean; dataDir?: string } = {},
): string => {
  const spend = outcome.spend ? [`spend: ${shortSpend(outcome.spend)}`] : [];
  const trace = outcome.tracePath ? [`trace: ${outcome.tracePath}`] : [];
  // The job's own trace, by its id (the folder the trace is in), when nothing else comes next;
  // with the --data-dir the job was given, so the command finds it.
  const readTrace = outcome.tracePath
    ? [
        `next: regreen trace show ${path.basename(path.dirname(outcome.tracePath))}${options.dataDir ? ` --data-dir ${shellWord(options.dataDir)}` : ''}`,
      ]
    : [];
  switch (outcome.status) {
    case 'proposed':
      if (outcome.dryRun) return dryRunText(outcome, spend, trace);
      return [
        `${outcome.needsPerson ? 'proposed as a draft (needs a person)' : 'proposed'}: ${outcome.title}`,
        ...(outcome.needsPerson ?? []).map((line) => `  needs a person: ${line}`),
        `branch: ${outcome.branch} (${outcome.updated ? 'updated' : 'created'}), fixed by ${outcome.fixedBy}${outcome.url ? `: ${outcome.url}` : ''}`,
        ...(outcome.changed ? [changedLine(outcome.changed)] : []),
        checksLine(outcome.checks),
        ...spend,
        ...(outcome.prTextPath ? [`PR text: ${outcome.prTextPath}`] : []),
        ...(outcome.patchPath ? [`patch: ${outcome.patchPath}`] : []),
        ...trace,
        nextLine(outcome),
        ...(options.verbose ? ['', outcome.prText] : []),
      ].join('\n');
    case 'diagnosis':
      return [
        wrap(`diagnosis (${outcome.category}): ${outcome.reason.split('\n')[0] ?? ''}`),
        // Refused by the checks: the reason above gave each one's why; here they are counted, once.
        ...(outcome.checks.length > 0
          ? [
              wrap(
                outcome.category === 'checks-failed'
                  ? checksCounted(outcome.checks)
                  : checksLine(outcome.checks),
              ),
            ]
          : []),
        ...spend,
        ...(outcome.reportedAt ? [`diagnosis: ${outcome.reportedAt}`] : []),
        ...trace,
        ...readTrace,
      ].join('\n');
    case 'not-reproduced':
      return [`not reproduced: ${outcome.reason}`, ...spend, ...trace, ...readTrace].join('\n');
    case 'error':
      return [`error (${outcome.code}): ${outcome.reason}`, ...spend, ...trace, ...readTrace].join(
        '\n',
      );
    case 'suspended':
      return [
        `waiting for an answer: ${outcome.pending.question.question} (${outcome.pending.where})`,
        ...spend,
        ...trace,
      ].join('\n');
  }
};

/**
 * `regreen fix --dry-run`: what would be proposed, then the PR text and the
 * patch in full (nothing was written: they are only here).
 */
const dryRunText = (
  outcome: Extract<Outcome, { status: 'proposed' }>,
  spend: readonly string[],
  trace: readonly string[],
): string =>
  [
    `proposed (dry run: no branch, nothing written): ${outcome.title}`,
    `fixed by ${outcome.fixedBy}; without --dry-run the branch would be ${outcome.branch}`,
    ...(outcome.changed ? [changedLine(outcome.changed)] : []),
    checksLine(outcome.checks),
    ...spend,
    ...trace,
    'next: apply the patch below (git am, or git apply), or run again without --dry-run',
    '',
    '--- PR text ---',
    `# ${outcome.title}`,
    '',
    outcome.prText,
    '',
    '--- patch ---',
    (outcome.patch ?? '').trimEnd(),
  ].join('\n');

const WIDTH = 100;

/** A long line wrapped at word boundaries, its continuation lines indented; a word longer than a line stays whole. */
export const wrap = (line: string, width = WIDTH): string => {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current && current.length + 1 + word.length > width) {
      out.push(current);
      current = `  ${word}`;
    } else current = current ? `${current} ${word}` : word;
  }
  out.push(current);
  return out.join('\n');
};

/** The checks counted, the failed ones by name only. */
const checksCounted = (checks: Parameters<typeof checksLine>[0]): string => {
  const failed = checks.filter((check) => !check.ok).map((check) => check.name);
  return failed.length === 0
    ? checksLine(checks)
    : `checks: ${checks.length - failed.length} of ${checks.length} passed; failed: ${failed.join(', ')}`;
};

/** The command a person runs next to see the fix: where its branch is, or its patch. */
const nextLine = (outcome: Extract<Outcome, { status: 'proposed' }>): string => {
  const base = outcome.baseSha ? outcome.baseSha.slice(0, 12) : `${outcome.branch}~1`;
  if (outcome.repository)
    return `next: git -C ${shellWord(outcome.repository)} diff ${base} ${outcome.branch}`;
  if (outcome.patchPath)
    return `next: git apply ${shellWord(outcome.patchPath)} (in your checkout)`;
  return outcome.url ? `next: open ${outcome.url}` : `next: git diff ${base} ${outcome.branch}`;
};

/** Spend in a few words: turns, cost, time. */
const shortSpend = (spend: Spend): string =>
  `${spend.turns} turn${spend.turns === 1 ? '' : 's'}, $${spend.costUsd.toFixed(4)}, ${(spend.elapsedMs / 1000).toFixed(1)}s`;

export const describeSpend = (spend: Spend): string =>
  `${spend.turns} turns, ${spend.inputTokens} input + ${spend.cacheReadTokens} cache-read + ${spend.cacheWriteTokens} cache-write + ${spend.outputTokens} output tokens, $${spend.costUsd.toFixed(4)}, ${(spend.elapsedMs / 1000).toFixed(1)}s`;
