import { bounded } from '../util/text.ts';

/** The most an outcome's one-line fields quote (a command, a reason): a step's env can be megabytes. */
export const OUTCOME_LINE_CHARS = 4096;

type Line = 'reason' | 'command';
type FailureLine = 'command' | 'where' | 'reproduce';

/**
 * An outcome with its one-line fields bounded (`bounded`, said where cut): its reason and
 * command, and its failure's command, place and reproduce line. What quotes a repository's text
 * there (the replayed step's script with its `env`, an error that names the command) is
 * bounded at the one place every outcome leaves the job — the trace, the CLI, the Action's
 * outputs, the diagnosis posted to the forge — however it was built.
 */
export const boundedOutcome = <T extends object>(outcome: T): T => {
  const lines = outcome as Partial<Record<Line, unknown>> & {
    failure?: Partial<Record<FailureLine, unknown>>;
  };
  const cut = <K extends string>(
    from: Partial<Record<K, unknown>>,
    keys: readonly K[],
  ): Partial<Record<K, string>> =>
    Object.fromEntries(
      keys.flatMap((key) => {
        const value = from[key];
        return typeof value === 'string' && value.length > OUTCOME_LINE_CHARS
          ? [[key, bounded(value, OUTCOME_LINE_CHARS)]]
          : [];
      }),
    ) as Partial<Record<K, string>>;
  const top = cut<Line>(lines, ['reason', 'command']);
  const failure =
    lines.failure && typeof lines.failure === 'object'
      ? cut<FailureLine>(lines.failure, ['command', 'where', 'reproduce'])
      : {};
  if (Object.keys(top).length === 0 && Object.keys(failure).length === 0) return outcome;
  return {
    ...outcome,
    ...top,
    ...(Object.keys(failure).length > 0 ? { failure: { ...lines.failure, ...failure } } : {}),
  };
};
