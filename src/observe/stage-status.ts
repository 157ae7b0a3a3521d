/**
 * Whether a stage of a job went as it should: as the stage recorded it, or
 * for an older trace, from the line the trace keeps for it. A stage's good result is not always a pass: the reproduce stage
 * succeeds when the command fails as it did in CI.
 */
import type { IconName } from './icons.ts';

export interface StageView {
  readonly status: IconName;
  /** A word for the verdict when the line alone would mislead (a green "failed"). */
  readonly verdict?: string;
}

type Rule = (stage: string, outcome: string) => StageView | undefined;

/** In order; the first that answers decides. */
const RULES: readonly Rule[] = [
  // runStage writes `error: …` when a stage threw.
  (_, outcome) => (/^error:/.test(outcome) ? { status: 'fail' } : undefined),
  (stage, outcome) =>
    stage !== 'reproduce'
      ? undefined
      : /^failed\b/.test(outcome)
        ? { status: 'pass', verdict: 'reproduced' }
        : /not reproduced/.test(outcome)
          ? { status: 'warn', verdict: 'not reproduced' }
          : undefined,
  (stage, outcome) => {
    if (stage !== 'checks') return undefined;
    if (/^no change/.test(outcome)) return { status: 'skip' };
    const counts = /^(\d+)\/(\d+) passed/.exec(outcome);
    return counts && counts[1] !== counts[2] ? { status: 'fail' } : undefined;
  },
  (stage, outcome) =>
    stage !== 'agent'
      ? undefined
      : /^(?:budget|loop)\b/.test(outcome)
        ? { status: 'warn' }
        : /^suspended\b/.test(outcome)
          ? { status: 'info', verdict: 'waiting' }
          : undefined,
  (_, outcome) => (/^skipped\b/.test(outcome) ? { status: 'skip' } : undefined),
  (_, outcome) => (/^(?:fail|refused)/i.test(outcome) ? { status: 'fail' } : undefined),
];

/**
 * The verdict the stage recorded in the trace when it has one; a trace
 * written before stages recorded theirs is read from its line.
 */
export const stageStatus = (
  stage: string,
  outcome: string,
  recorded?: { readonly status?: IconName; readonly verdict?: string },
): StageView => {
  if (recorded?.status)
    return recorded.verdict
      ? { status: recorded.status, verdict: recorded.verdict }
      : { status: recorded.status };
  for (const rule of RULES) {
    const view = rule(stage, outcome);
    if (view) return view;
  }
  return { status: 'pass' };
};
