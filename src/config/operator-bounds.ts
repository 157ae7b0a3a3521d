import { RegreenError } from '../errors.ts';
import { DEFAULT_BUDGET, type RepoConfig } from './repo-config.ts';
import { settingsOf, type Env } from './env.ts';

/**
 * The operator sets models, prices and ceilings (flags, environment, App
 * settings); the repository chooses within them. `.github/regreen.yml` is the
 * failing commit's own file, written by whoever pushed it: it may lower a
 * limit, never raise one, and it never names a program on the host.
 */
/** What one job's agent may spend: the limits the ledger enforces. */
export interface Budget {
  readonly maxTurns: number;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly maxCostUsd: number;
  readonly maxMs: number;
}

export interface OperatorCeilings {
  readonly budget: Budget;
  readonly setupSeconds: number;
  readonly commandSeconds: number;
  readonly maxFiles: number;
  readonly maxLines: number;
  readonly maxKib: number;
  readonly maxWorkers: number;
  readonly askTimeoutMinutes: number;
  /** Every exec-level tool waits for a maintainer's yes, whatever the repository says. */
  readonly approveExec: boolean;
  /** A change that needs a person may be proposed as a draft (REGREEN_DRAFTS, on unless "off"). */
  readonly drafts: boolean;
}

/** The ceilings: the operator's flags and environment over regreen's defaults. */
export const operatorCeilings = (env: Env, flags: Partial<Budget> = {}): OperatorCeilings => ({
  budget: {
    maxTurns: flags.maxTurns ?? settingsOf(env).maxTurns ?? DEFAULT_BUDGET.max_turns,
    maxInputTokens:
      flags.maxInputTokens ?? settingsOf(env).maxInputTokens ?? DEFAULT_BUDGET.max_input_tokens,
    maxOutputTokens:
      flags.maxOutputTokens ?? settingsOf(env).maxOutputTokens ?? DEFAULT_BUDGET.max_output_tokens,
    maxCostUsd: flags.maxCostUsd ?? settingsOf(env).maxCostUsd ?? DEFAULT_BUDGET.max_cost_usd,
    maxMs: flags.maxMs ?? (settingsOf(env).maxMinutes ?? DEFAULT_BUDGET.max_minutes) * 60_000,
  },
  setupSeconds: settingsOf(env).maxSetupSeconds ?? 900,
  commandSeconds: settingsOf(env).maxCommandSeconds ?? 600,
  maxFiles: settingsOf(env).maxDiffFiles ?? 10,
  maxLines: settingsOf(env).maxDiffLines ?? 400,
  maxKib: settingsOf(env).maxDiffKib ?? 256,
  maxWorkers: settingsOf(env).maxWorkers ?? 3,
  askTimeoutMinutes: settingsOf(env).maxAskMinutes ?? 24 * 60,
  approveExec: settingsOf(env).approveExec === 'always',
  drafts: settingsOf(env).drafts !== 'off',
});

/**
 * When the repository leaves a limit at its default, the operator's (possibly
 * higher) ceiling is the limit: a flag such as `--max-cost 10` is not cut back
 * to the default by a repository that said nothing.
 */
const chosen = (value: number, fallback: number, ceiling: number): number =>
  value === fallback ? ceiling : value;

/** The config as the job uses it: every limit within the operator's; what was cut, in words. */
export const boundRepoConfig = (
  config: RepoConfig,
  ceilings: OperatorCeilings,
): { config: RepoConfig; notes: string[] } => {
  const notes: string[] = [];
  const cap = (what: string, value: number, ceiling: number): number => {
    if (value <= ceiling) return value;
    notes.push(`${what} ${value} is above the operator's ${ceiling}: ${ceiling} applies`);
    return ceiling;
  };
  const budget = config.budget;
  const bounded: RepoConfig = {
    ...config,
    budget: {
      max_turns: cap(
        'budget.max_turns',
        chosen(budget.max_turns, DEFAULT_BUDGET.max_turns, ceilings.budget.maxTurns),
        ceilings.budget.maxTurns,
      ),
      max_input_tokens: cap(
        'budget.max_input_tokens',
        chosen(
          budget.max_input_tokens,
          DEFAULT_BUDGET.max_input_tokens,
          ceilings.budget.maxInputTokens,
        ),
        ceilings.budget.maxInputTokens,
      ),
      max_output_tokens: cap(
        'budget.max_output_tokens',
        chosen(
          budget.max_output_tokens,
          DEFAULT_BUDGET.max_output_tokens,
          ceilings.budget.maxOutputTokens,
        ),
        ceilings.budget.maxOutputTokens,
      ),
      max_cost_usd: cap(
        'budget.max_cost_usd',
        chosen(budget.max_cost_usd, DEFAULT_BUDGET.max_cost_usd, ceilings.budget.maxCostUsd),
        ceilings.budget.maxCostUsd,
      ),
      max_minutes: cap(
        'budget.max_minutes',
        chosen(budget.max_minutes, DEFAULT_BUDGET.max_minutes, ceilings.budget.maxMs / 60_000),
        ceilings.budget.maxMs / 60_000,
      ),
    },
    timeouts: {
      setup_seconds: cap(
        'timeouts.setup_seconds',
        config.timeouts.setup_seconds,
        ceilings.setupSeconds,
      ),
      command_seconds: cap(
        'timeouts.command_seconds',
        config.timeouts.command_seconds,
        ceilings.commandSeconds,
      ),
    },
    diff_limits: {
      max_files: cap('diff_limits.max_files', config.diff_limits.max_files, ceilings.maxFiles),
      max_lines: cap('diff_limits.max_lines', config.diff_limits.max_lines, ceilings.maxLines),
      max_kib: cap('diff_limits.max_kib', config.diff_limits.max_kib, ceilings.maxKib),
    },
    workers: {
      ...config.workers,
      max_live: cap('workers.max_live', config.workers.max_live, ceilings.maxWorkers),
    },
    // The repository may turn drafts off, never on against the operator.
    drafts: config.drafts && ceilings.drafts,
    ask_user: {
      ...config.ask_user,
      approve_exec: config.ask_user.approve_exec || ceilings.approveExec,
      timeout_minutes: cap(
        'ask_user.timeout_minutes',
        config.ask_user.timeout_minutes,
        ceilings.askTimeoutMinutes,
      ),
    },
  };
  if (ceilings.approveExec && !config.ask_user.approve_exec)
    notes.push(
      "ask_user.approve_exec is off in the repository's config, but the operator requires it (REGREEN_APPROVE_EXEC=always): on",
    );
  return { config: bounded, notes };
};

/** The budget flags as typed on a command line or in an Action's inputs. */
export interface BudgetFlagValues {
  readonly maxTurns?: string;
  readonly maxCost?: string;
  readonly maxMinutes?: string;
  readonly maxInputTokens?: string;
  readonly maxOutputTokens?: string;
}

/** A budget flag's number, worded as its variable's (REGREEN_MAX_TURNS: "a whole number above 0"). */
const positive = (
  flag: string,
  value: string | undefined,
  example: number,
  whole = false,
): number | undefined => {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0 || (whole && !Number.isInteger(number)))
    throw new RegreenError(
      'usage',
      `${flag} must be ${whole ? 'a whole number' : 'a number'} above 0, not "${value}". For example: ${flag} ${example}`,
    );
  return number;
};

/** Budget limits from the command line; they override the repository config's. */
export const budgetFlags = (options: BudgetFlagValues): Partial<Budget> => {
  const entries: [keyof Budget, number | undefined][] = [
    ['maxTurns', positive('--max-turns', options.maxTurns, 30, true)],
    ['maxCostUsd', positive('--max-cost', options.maxCost, 2)],
    [
      'maxMs',
      options.maxMinutes === undefined
        ? undefined
        : (positive('--max-minutes', options.maxMinutes, 20) ?? 0) * 60_000,
    ],
    ['maxInputTokens', positive('--max-input-tokens', options.maxInputTokens, 2_000_000, true)],
    ['maxOutputTokens', positive('--max-output-tokens', options.maxOutputTokens, 100_000, true)],
  ];
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
};
