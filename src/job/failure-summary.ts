import { failingTestNames } from '../../checks/failing-tests.ts';
import { recogniseFailures } from '../intake/formats/index.ts';
import type { Message } from '../model/types.ts';
import { stripAnsi } from '../util/text.ts';

/** What a person needs to act on a failure regreen did not fix: what failed, where, what was tried. */
export interface FailureSummary {
  /** The command and where it ran. */
  readonly command: string;
  readonly where: string;
  readonly exitCode: number | null;
  /** Failing tests (or files, packages) the runner named. */
  readonly tests: readonly string[];
  /** `file:line: message` of the errors recognised in the output. */
  readonly locations: readonly string[];
  /** The lines of the output around the first error, or its tail. */
  readonly excerpt: string;
  /** One line per thing tried: recipes, the agent. */
  readonly tried: readonly string[];
  /** The command line that runs the same job on a person's machine. */
  readonly reproduce: string;
  /** No model was configured: the agent did not run. */
  readonly noModel: boolean;
  /** CI's failure beside the reproduced one, when they differ. */
  readonly comparison?: { readonly ci: string; readonly here: string; readonly why: string };
  /** How the job was replayed (steps, toolchains, what was skipped). */
  readonly environment?: readonly string[];
  /** The command was the set-up, which failed before the failing command could run. */
  readonly setup?: boolean;
  /** The command failed before its runner ran: nothing was reproduced. */
  readonly neverRan?: boolean;
}

const shellQuote = (value: string): string =>
  /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;

/** What a person can do next, by why nothing was proposed. */
/** How a person sets each thing the next steps name, by the front door that ran the job. */
const KNOBS = {
  cli: {
    model: 'set `ANTHROPIC_API_KEY` (or pass `--model`) for regreen',
    budget: '`--max-*` / `REGREEN_MAX_*`',
    setup:
      'the workflow job with `--job`, or the registry and toolchain the step needs on regreen’s machine',
    again: undefined,
  },
  action: {
    model:
      'pass a key to the Action’s `anthropic-api-key` input from a secret (`${{ secrets.ANTHROPIC_API_KEY }}`), then re-run the failed jobs',
    budget: 'the Action’s `max-turns`, `max-cost` and `max-minutes` inputs',
    setup: 'the toolchain the step needs on the runner',
    again: 're-run the failed jobs to let regreen try again',
  },
  app: {
    model: 'the App’s operator sets `ANTHROPIC_API_KEY` (or `REGREEN_MODEL`)',
    budget: 'the operator’s `REGREEN_MAX_*`',
    setup: 'the registry and toolchain the step needs on the App’s machine',
    again: 'On a pull request, `/regreen fix` runs the job again; `/regreen stop` silences it.',
  },
  eval: {
    model: 'run the eval with a model (`--model`)',
    budget: '`--max-*`',
    setup: 'the task’s `setup`',
    again: undefined,
  },
} as const;

/** What a person can do about a diagnosis, in the terms of the front door that ran the job. */
export const nextSteps = (
  category: string,
  failure: FailureSummary | undefined,
  failedChecks: readonly string[],
  trigger: keyof typeof KNOBS = 'cli',
): string[] => {
  const knobs = KNOBS[trigger];
  const steps: string[] = [];
  if (failure?.noModel)
    steps.push(`Let the agent try: ${knobs.model}; no recipe fits this failure.`);
  if (category === 'budget')
    steps.push(
      `The agent ran out of budget: raise \`budget\` in \`.github/regreen.yml\` (within the operator’s ceilings, ${knobs.budget}), or narrow the task with a hint.`,
    );
  if (category === 'reproduced-differently')
    steps.push(
      "regreen's run does not fail as CI did: give regreen CI's setup (`setup_command` in `.github/regreen.yml`, or the toolchain the workflow names on regreen's machine), then run it again. No model was asked.",
    );
  if (category === 'setup-failed')
    steps.push(
      `The set-up failed where regreen ran it, not in the code: give regreen CI's set-up (\`setup_command\` in \`.github/regreen.yml\`, ${knobs.setup}), then run it again. No model was asked.`,
    );
  if (category === 'loop')
    steps.push('The agent went in circles: a hint about the cause usually breaks the loop.');
  if (failedChecks.length > 0)
    steps.push(
      `A change was made but refused by ${failedChecks.map((name) => `\`${name}\``).join(', ')}: see the checks below; a change to a protected file needs a person (or \`unprotected:\` in \`.github/regreen.yml\`).`,
    );
  if (knobs.again) steps.push(knobs.again.charAt(0).toUpperCase() + knobs.again.slice(1));
  if (failure) steps.push(`Reproduce it locally: \`${failure.reproduce}\``);
  return steps;
};

const EXCERPT_LINES = 25;
const EARLIER_ERRORS = 5;
const ERROR_WORD = /\berror\b|ERR!|not found|denied|refused/i;

/** The end of a run's output, after the error lines printed before it (a set-up's error comes last). */
const tailWithErrors = (lines: readonly string[]): string => {
  const body = lines.at(-1) === '' ? lines.slice(0, -1) : lines;
  const tail = body.slice(-EXCERPT_LINES);
  const earlier = body
    .slice(0, Math.max(0, body.length - EXCERPT_LINES))
    .filter((line) => ERROR_WORD.test(line))
    .slice(-EARLIER_ERRORS);
  return [...earlier, ...(earlier.length > 0 ? ['…'] : []), ...tail].join('\n');
};

/** The error lines of a run's output with a little context, else its tail. */
const excerptOf = (lines: readonly string[], firstError: number | undefined): string => {
  if (firstError === undefined) return lines.slice(-EXCERPT_LINES).join('\n');
  const start = Math.max(0, firstError - 3);
  return lines.slice(start, start + EXCERPT_LINES).join('\n');
};

/** How a runner joins a test's file and suites to its name: `file > suite > name`, `file::name`. */
const JOINS = [' > ', ' › ', '::'];

/**
 * Each failing test once: a runner that names a test alone (`× adds`) and
 * again with its file (`FAIL a.test.ts > adds`) is one test, kept with its file.
 */
export const distinctTests = (names: readonly string[]): string[] =>
  names.filter(
    (name) =>
      !names.some(
        (other) => other !== name && JOINS.some((join) => other.endsWith(`${join}${name}`)),
      ),
  );

export const summariseFailure = (options: {
  command: string;
  where: string;
  repo: string;
  sha: string;
  exitCode: number | null;
  output: string;
  tried: readonly string[];
  noModel: boolean;
  /** The job's workspace: its paths are shown relative to the repository. */
  workspace: string;
  environment?: readonly string[];
  /** The set-up failed (`command`), before `failing`, the job's failing command, could run. */
  setupOf?: string;
  /** The command failed before its runner ran. */
  neverRan?: boolean;
  /** The excerpt is the output's end (with the error lines before it), where a set-up says what failed. */
  tail?: boolean;
}): FailureSummary => {
  const text = stripAnsi(options.output).replaceAll(`${options.workspace}/`, '');
  const lines = text.split('\n');
  const recognised = recogniseFailures(
    lines.map((line, index) => ({ line: index + 1, text: line })),
  );
  const locations = [
    ...new Set(
      recognised.flatMap((failure) =>
        failure.file
          ? [
              `${failure.file}${failure.line !== undefined ? `:${failure.line}` : ''}${failure.message && /\w/.test(failure.message) ? `: ${failure.message.slice(0, 160)}` : ''}`,
            ]
          : [],
      ),
    ),
  ].slice(0, 10);
  const firstError =
    recognised.length > 0 ? Math.min(...recognised.map((f) => f.logLine)) - 1 : undefined;
  return {
    command: options.command,
    where: options.where,
    exitCode: options.exitCode,
    tests: distinctTests([...failingTestNames(text)]).slice(0, 20),
    locations,
    excerpt: options.tail ? tailWithErrors(lines) : excerptOf(lines, firstError),
    tried: options.tried,
    // The job's failing command: a failed set-up runs again before it.
    reproduce: `regreen fix --repo ${shellQuote(options.repo)} --ref ${options.sha.slice(0, 12)} --command ${shellQuote(options.setupOf ?? options.command)}`,
    ...(options.setupOf !== undefined ? { setup: true } : {}),
    ...(options.neverRan ? { neverRan: true } : {}),
    noModel: options.noModel,
    ...(options.environment && options.environment.length > 0
      ? { environment: options.environment }
      : {}),
  };
};

/** `, tools: read ×3, edit` — what the agent called, for one line of the diagnosis. */
export const toolsUsed = (messages: readonly Message[]): string => {
  const counts = new Map<string, number>();
  for (const message of messages)
    if (message.role === 'assistant')
      for (const block of message.content)
        if (block.type === 'tool_use') counts.set(block.name, (counts.get(block.name) ?? 0) + 1);
  return counts.size === 0
    ? ''
    : `, tools: ${[...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ')}`;
};
