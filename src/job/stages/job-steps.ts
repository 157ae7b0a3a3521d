/**
 * Running a workflow job's steps to find its failure: the job `--job` names,
 * or — given no command and no job — each job CI runs on a push or pull
 * request in turn, as CI would, until a step fails. The step that failed is
 * named by its job and title; a step that only installs is the set-up's
 * failure, never the command to fix.
 */
import { RegreenError } from '../../errors.ts';
import type { ReplayedStep } from '../../intake/workflow-replay.ts';
import type { CommandResult } from '../../workspace/run-process.ts';
import type { Env } from '../../config/env.ts';
import type { FailureReport } from '../../intake/failure-report.ts';
import { ciJobs } from '../../intake/workflow-triggers.ts';
import { findFailingStep, planReplay, type FoundStep, type Replay } from './replay.ts';

/** The workflow steps a job's set-up replayed, and the step its failing command runs. */
export interface ReplayedRun {
  /** `workflow-file:job-id`, or the job as the report named it. */
  readonly job: string;
  /** The steps the set-up ran (a failed set-up ended in one of them). */
  readonly steps: readonly ReplayedStep[];
  /** The job's step the failing command runs. */
  readonly failing?: ReplayedStep;
  /** The step that installs and failed, when one did. */
  readonly setupStep?: ReplayedStep;
}

export interface StepsRun {
  readonly setupCommand?: string;
  readonly setupResult?: CommandResult;
  readonly failingCommand: string;
  /** The job whose step failed (the last one tried when none did). */
  readonly plan: Replay;
  readonly replayed: ReplayedRun;
  /** What was run, job by job, for a person (only when the workflow's jobs were searched). */
  readonly tried: readonly string[];
  /** Every step of every job passed: nothing to reproduce. */
  readonly passed?: CommandResult;
}

const jobName = (plan: Replay): string => `${plan.replay.file}:${plan.replay.job}`;

const stepsRun = (plan: Replay, found: FoundStep, tried: readonly string[]): StepsRun => ({
  ...(found.setupCommand !== undefined ? { setupCommand: found.setupCommand } : {}),
  ...(found.setupResult ? { setupResult: found.setupResult } : {}),
  failingCommand: found.failingCommand,
  plan,
  replayed: {
    job: jobName(plan),
    steps: plan.replay.steps,
    failing: found.failingStep,
    ...(found.setupStep ? { setupStep: found.setupStep } : {}),
  },
  tried,
});

/** `--job`: the job's steps in order until one fails (its last is the failing command if none does). */
export const runNamedJob = async (
  plan: Replay,
  run: (command: string) => Promise<CommandResult>,
): Promise<StepsRun> => {
  const found = await findFailingStep(plan, run);
  // Without `runLast` the last step is always the one found.
  if (!found) throw new RegreenError('internal', 'a job run without runLast ended at no step');
  return stepsRun(plan, found, []);
};

/**
 * No command and no job: each CI job in turn, every step run, until one
 * fails; that job is the failing one, named with its step. When every job
 * passes, what ran is the answer (`passed`), listed in `tried`.
 */
export const runCiJobs = async (
  plans: readonly Replay[],
  run: (command: string) => Promise<CommandResult>,
): Promise<StepsRun | undefined> => {
  const tried: string[] = [];
  let last: Replay | undefined;
  for (const plan of plans) {
    if (plan.replay.steps.length === 0) {
      tried.push(`${jobName(plan)}: no run: step regreen can replay`);
      continue;
    }
    last = plan;
    const found = await findFailingStep(plan, run, { runLast: true });
    if (found) {
      const step = found.setupStep ?? found.failingStep;
      tried.push(`${jobName(plan)}: step "${step.title}" failed`);
      return stepsRun(plan, found, tried);
    }
    tried.push(`${jobName(plan)}: all ${plan.replay.steps.length} run: step(s) passed`);
  }
  if (!last) return undefined;
  const final = last.replay.steps.at(-1);
  return {
    failingCommand: final?.command ?? '',
    plan: last,
    replayed: { job: jobName(last), steps: last.replay.steps },
    tried,
    passed: { exitCode: 0, output: '', durationMs: 0, timedOut: false, droppedBytes: 0 },
  };
};

/**
 * The set-up of a job whose failing step is to be found by running its steps:
 * the config's own `setup_command` first, then the job's steps (`--job`), or
 * the workflow's CI jobs in turn when none was named.
 */
export const runWorkflowSteps = async (
  own: string | undefined,
  named: Replay | undefined,
  ciPlans: readonly Replay[],
  run: (command: string) => Promise<CommandResult>,
): Promise<{
  setupCommand?: string;
  setupResult?: CommandResult;
  failingCommand?: string;
  steps?: StepsRun;
}> => {
  const ownResult = own ? await run(own) : undefined;
  if (own && ownResult && ownResult.exitCode !== 0)
    return { setupCommand: own, setupResult: ownResult, failingCommand: own };
  const steps = named ? await runNamedJob(named, run) : await runCiJobs(ciPlans, run);
  if (!steps) return {};
  const setupCommand = [own, steps.setupCommand].filter(Boolean).join('\n') || undefined;
  const setupResult = steps.setupResult ?? ownResult;
  return {
    ...(setupCommand ? { setupCommand } : {}),
    ...(setupResult ? { setupResult } : {}),
    failingCommand: steps.failingCommand,
    steps,
  };
};

/** Where the failing command came from, for a person reading why it passed or failed. */
const commandSource = (options: {
  readonly given: boolean;
  readonly ciStep: boolean;
  readonly testCommand: boolean;
  readonly replayed: ReplayedRun | undefined;
  readonly named: boolean;
}): string => {
  const { replayed } = options;
  const step = replayed?.failing ? `step "${replayed.failing.title}" of ${replayed.job}` : '';
  if (options.ciStep) return `CI's failing step${step ? `: ${step}` : ''}`;
  if (options.given) return `the command given${step ? `, run as ${step}` : ''}`;
  if (options.testCommand) return 'test_command in .github/regreen.yml';
  if (options.named) return `${step || 'the job'} (--job), the first of its steps that failed`;
  if (replayed)
    return replayed.failing
      ? `${step}, the first step that failed of the workflow jobs a push or pull request runs`
      : `the workflow jobs a push or pull request runs, every step of which passed`;
  return "the project's default test command, detected from its files (no workflow job that a push or pull request runs on Linux was found)";
};

/** The replay of each job CI runs on a push or pull request, in the workflows' order. */
export const ciPlansOf = (
  report: FailureReport,
  workspace: string,
  home: string,
  env: Env,
): Replay[] =>
  ciJobs(workspace).flatMap(
    ({ name }) => planReplay({ ...report, workflowJob: name }, workspace, home, env).plan ?? [],
  );

/** The first plan, with every plan's toolchains: the sandbox is opened once for all the jobs. */
export const withAllToolchains = (plans: readonly Replay[]): Replay | undefined => {
  const [first] = plans;
  return first && { ...first, bins: [...new Set(plans.flatMap((plan) => plan.bins))] };
};

/** What `Prepared` says of how the failing command was found: the replayed steps, where it came from, what ran. */
export const howFound = (
  report: FailureReport,
  testCommand: string | undefined,
  plan: Replay | undefined,
  steps: StepsRun | undefined,
): {
  replayed?: ReplayedRun;
  commandSource: string;
  tried: readonly string[];
  passed?: CommandResult;
} => {
  const replayed: ReplayedRun | undefined =
    steps?.replayed ??
    (plan && {
      job: jobName(plan),
      steps: plan.replay.steps,
      ...(plan.replay.failing ? { failing: plan.replay.failing } : {}),
    });
  return {
    ...(replayed ? { replayed } : {}),
    commandSource: commandSource({
      given: report.command !== undefined,
      ciStep: report.workflowStep !== undefined,
      testCommand: testCommand !== undefined,
      replayed,
      named: report.workflowJob !== undefined,
    }),
    tried: steps?.tried ?? [],
    ...(steps?.passed ? { passed: steps.passed } : {}),
  };
};
