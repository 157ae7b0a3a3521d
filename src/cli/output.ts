import type { CheckResult } from '../../checks/types.ts';
import type { Outcome } from '../job/outcome.ts';
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
        fixedBy: outcome.fixedBy,
        fingerprint: outcome.fingerprint,
        updated: outcome.updated,
        reproduction: outcome.reproduction,
        checks: outcome.checks,
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
      return { ...base, reason: outcome.reason, command: outcome.command };
    case 'error':
      return { ...base, reason: outcome.reason, code: outcome.code };
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

const checkLines = (checks: readonly CheckResult[]): string[] =>
  checks.map(
    (check) =>
      `  ${check.ok ? 'pass' : 'FAIL'}  ${check.name}: ${check.detail.split('\n')[0] ?? ''}`,
  );

/** The outcome for a person reading a terminal. */
export const outcomeText = (outcome: Outcome): string => {
  const trace = [
    ...(outcome.spend ? [`spend: ${describeSpend(outcome.spend)}`] : []),
    ...(outcome.tracePath ? [`trace: ${outcome.tracePath}`] : []),
  ];
  switch (outcome.status) {
    case 'proposed':
      return [
        `proposed: ${outcome.title}`,
        `branch: ${outcome.branch} (${outcome.updated ? 'updated' : 'created'}), fixed by ${outcome.fixedBy}`,
        ...(outcome.prTextPath ? [`PR text: ${outcome.prTextPath}`] : []),
        ...trace,
        '',
        outcome.prText,
      ].join('\n');
    case 'diagnosis':
      return [
        `diagnosis (${outcome.category}): ${outcome.reason}`,
        ...checkLines(outcome.checks),
        ...(outcome.reportedAt ? [`diagnosis: ${outcome.reportedAt}`] : []),
        ...trace,
      ].join('\n');
    case 'not-reproduced':
      return [`not reproduced: ${outcome.reason}`, ...trace].join('\n');
    case 'error':
      return [`error (${outcome.code}): ${outcome.reason}`, ...trace].join('\n');
    case 'suspended':
      return [
        `waiting for an answer: ${outcome.pending.question.question} (${outcome.pending.where})`,
        ...trace,
      ].join('\n');
  }
};

export const describeSpend = (spend: Spend): string =>
  `${spend.turns} turns, ${spend.inputTokens} input + ${spend.cacheReadTokens} cache-read + ${spend.cacheWriteTokens} cache-write + ${spend.outputTokens} output tokens, $${spend.costUsd.toFixed(4)}, ${(spend.elapsedMs / 1000).toFixed(1)}s`;
