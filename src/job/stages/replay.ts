import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FailureReport } from '../../intake/failure-report.ts';
import { jobRunning } from '../../intake/workflow-command.ts';
import {
  replayJob,
  replayScript,
  replayedStepCommand,
  type JobReplay,
  type ReplayedStep,
} from '../../intake/workflow-replay.ts';
import { RegreenError, describeError } from '../../errors.ts';
import { settingsOf, type Env } from '../../config/env.ts';
import type { CommandResult } from '../../workspace/run-process.ts';
import { whichIn } from '../../util/which.ts';
import { pythonSuffix } from '../../workspace/setup/private-toolchains.ts';
import { isSetupStep } from '../../intake/setup-step.ts';
import {
  installedToolchains,
  isPinned,
  matchToolchain,
  type InstalledToolchain,
  type ToolchainKind,
} from '../../workspace/setup/toolchains.ts';

/** The workflow's plan for a job: what to set up, what failed, on which toolchains, and what was left out. */
/** The toolchains each job's workflow asked for, put first on its sandboxes' PATH. */
const jobToolchains = new WeakMap<object, readonly string[]>();

/** Records the plan's toolchains as the job's (before its first sandbox opens). */
export const useToolchains = (job: object, plan: Replay | undefined): void => {
  if (plan && plan.bins.length > 0) jobToolchains.set(job, plan.bins);
};

/** The `bin` folders of the job's toolchains, as a sandbox's provided tools. */
export const toolchainTools = (job: object): { bin: string; root: string }[] =>
  (jobToolchains.get(job) ?? []).map((bin) => ({ bin, root: path.dirname(bin) }));

export interface Replay {
  readonly replay: JobReplay;
  /**
   * The `bin` folders of the toolchains the workflow asked for (none: the
   * machine's own): first on the PATH of every sandbox of the job, so the
   * commands stay as CI wrote them.
   */
  readonly bins: readonly string[];
  /** What a person should know about how faithful the replay is. */
  readonly notes: readonly string[];
  /** The job was found by the command the trigger gave (its failing step runs that command). */
  readonly fromCommand?: boolean;
}

/** The toolchain regreen itself runs on counts as installed (it is on the sandbox's PATH). */
const runningNode = (): InstalledToolchain => ({
  kind: 'node',
  version: process.version.replace(/^v/, ''),
  bin: path.dirname(process.execPath),
});

/** The toolchains of this machine by kind, each kind looked up once. */
const machineToolchains = (
  home: string,
  toolCache: string | undefined,
): ((kind: ToolchainKind) => InstalledToolchain[]) => {
  const installed = new Map<ToolchainKind, InstalledToolchain[]>();
  return (kind) => {
    let candidates = installed.get(kind);
    if (!candidates) {
      candidates = [
        ...(kind === 'node' ? [runningNode()] : []),
        ...installedToolchains(kind, {
          home,
          exists: existsSync,
          ...(toolCache ? { toolCache } : {}),
        }),
      ];
      installed.set(kind, candidates);
    }
    return candidates;
  };
};

const toolchainBins = (
  replay: JobReplay,
  installed: (kind: ToolchainKind) => InstalledToolchain[],
): { bins: string[]; notes: string[] } => {
  const bins: string[] = [];
  const notes: string[] = [];
  for (const request of replay.toolchains) {
    if (!isPinned(request.version)) {
      notes.push(
        `${request.kind} ${request.version} (${request.step}): not pinned, the machine's own is used`,
      );
      continue;
    }
    const match = matchToolchain(request, installed(request.kind));
    if (match.found) {
      bins.push(match.toolchain.bin);
      notes.push(
        `${request.kind} ${request.version} (${request.step}): ${match.toolchain.version} at ${match.toolchain.bin}`,
      );
    } else {
      notes.push(
        `toolchain ${request.kind} ${request.version} (${request.step}) is not available here${
          match.available.length > 0 ? ` (this machine has ${match.available.join(', ')})` : ''
        }: the machine's own is used`,
      );
    }
  }
  return { bins: [...new Set(bins)], notes };
};

/**
 * The replay of the failing job when the report names one (the App and the
 * Action name the failing step, `--job` the job); undefined without a
 * workflow, or when the workflow cannot be read (a note says why).
 */
export const planReplay = (
  report: FailureReport,
  workspace: string,
  home: string,
  env: Env,
): { plan?: Replay; note?: string } => {
  // Given only a command (the CLI, the eval corpus), the job whose step runs it is replayed.
  const running =
    report.workflowStep === undefined && report.workflowJob === undefined && report.command
      ? jobRunning(workspace, report.command, report.branch)
      : undefined;
  const wanted = report.workflowStep ?? running;
  const job = wanted?.job ?? report.workflowJob;
  if (job === undefined) return {};
  const installed = machineToolchains(home, settingsOf(env).runnerToolCache);
  const onPath = whichIn(settingsOf(env).path);
  const has = (kind: ToolchainKind, version: string): boolean => {
    if (!isPinned(version)) return true;
    if (matchToolchain({ kind, version, step: '' }, installed(kind)).found) return true;
    // A Python the system keeps by its version (`python3.12`), which the replay's environment is made from.
    const suffix = kind === 'python' ? pythonSuffix(version) : undefined;
    return suffix !== undefined && onPath(`python${suffix}`) !== undefined;
  };
  let replay: JobReplay;
  try {
    replay = replayJob(workspace, job, wanted?.step, has);
  } catch (error) {
    // A job the person named (`--job`) that is not there, or is there twice, is their mistake
    // to hear about, not a guess to go on with.
    if (report.workflowStep === undefined && report.workflowJob !== undefined && !running)
      throw error instanceof RegreenError
        ? error
        : new RegreenError('usage', `--job ${report.workflowJob}: ${describeError(error)}`);
    return { note: `the workflow could not be replayed: ${describeError(error)}` };
  }
  if (wanted && !replay.failing) {
    return {
      note: `the failing step "${wanted.step}" is not a run: step of ${replay.file}`,
    };
  }
  const { bins, notes } = toolchainBins(replay, installed);
  return {
    plan: {
      replay,
      bins,
      fromCommand: running !== undefined,
      notes: [
        ...(running ? [`the command is a step of ${running.job}: its set-up is replayed`] : []),
        ...(running?.note ? [running.note] : []),
        `replayed from ${replay.file}, job ${replay.job}${
          replay.matrixEntry ? `, ${replay.matrixEntry}` : ''
        }: ${replay.steps.length} step(s)${replay.failing ? ` before "${replay.failing.title}"` : ''}`,
        ...notes,
        ...replay.skipped.map((s) =>
          s.needs && !whichIn(settingsOf(env).path)(s.needs)
            ? `"${s.step}" is not available here: ${s.needs} is not on this machine's PATH (install it where regreen runs)`
            : `skipped "${s.step}": ${s.why}`,
        ),
        ...(replay.unresolved.length > 0
          ? [`left out (secrets or contexts): ${replay.unresolved.join(', ')}`]
          : []),
      ],
    },
  };
};

/** The setup script of a replay: the steps before the failing one, on the workflow's toolchains. */
export const replaySetup = (plan: Replay, steps = plan.replay.steps): string | undefined =>
  steps.length > 0 ? replayScript(steps) : undefined;

/** The failing step's command: on the workflow's toolchains, with what the steps before it carried. */
export const replayFailing = (plan: Replay, step: ReplayedStep): string =>
  carries(plan) ? replayedStepCommand(step) : step.command;

/**
 * Whether a step before the failing one writes what the runner carries to later steps (a setup
 * action's toolchain reaches every command of the sandbox without it: `privateToolchainEnv`).
 */
const carries = (plan: Replay): boolean =>
  plan.replay.steps.some(
    (step) => step.toolchain === undefined && /\bGITHUB_(ENV|PATH)\b/.test(step.command),
  );

/** What running a job's steps found: the failing one, and the set-up that ran before it. */
export interface FoundStep {
  readonly setupCommand?: string;
  readonly setupResult?: CommandResult;
  readonly failingCommand: string;
  /** The job's step the failing command runs (its test step when a set-up step failed). */
  readonly failingStep: ReplayedStep;
  /** A step that installs and failed: the environment's outcome, before the failing step could run. */
  readonly setupStep?: ReplayedStep;
}

/** The job's own test step: its last step that does not only install, else its last. */
const testStepAfter = (steps: readonly ReplayedStep[], from: number): ReplayedStep | undefined =>
  steps.slice(from).findLast((step) => !isSetupStep(step.run ?? step.command)) ?? steps.at(-1);

/**
 * `--job` names a job, not its failing step: its `run:` steps run in order, as
 * CI ran them, until one fails; that one is the failing command and the ones
 * before it are the setup (which has then already run). The last step is
 * the failing command when none before it fails — or, with `runLast`, runs
 * too, and a job whose every step passes finds nothing (undefined). A step
 * that only installs and fails is the set-up's failure (`setupStep`), with
 * the job's test step as the command it kept from running.
 */
export const findFailingStep = async (
  plan: Replay,
  run: (command: string) => Promise<CommandResult>,
  options: { readonly runLast?: boolean } = {},
): Promise<FoundStep | undefined> => {
  const steps = plan.replay.steps;
  if (steps.length === 0)
    throw new RegreenError(
      'usage',
      `--job ${plan.replay.job} in ${plan.replay.file} has no run: steps`,
    );
  const outputs: string[] = [];
  let durationMs = 0;
  for (const [i, step] of steps.entries()) {
    const last = i === steps.length - 1 && !options.runLast;
    const result = last ? undefined : await run(replayScript([step], i === 0));
    if (result !== undefined && result.exitCode === 0) {
      outputs.push(result.output);
      durationMs += result.durationMs;
      continue;
    }
    const setupStep = result && isSetupStep(step.run ?? step.command) ? step : undefined;
    const before = steps.slice(0, setupStep ? i + 1 : i);
    const setupCommand = replaySetup(plan, before);
    const failingStep = setupStep ? (testStepAfter(steps, i + 1) ?? step) : step;
    const setupResult: CommandResult = {
      exitCode: setupStep && result ? result.exitCode : 0,
      output: [...outputs, ...(setupStep && result ? [result.output] : [])].join('\n'),
      durationMs: durationMs + (setupStep && result ? result.durationMs : 0),
      timedOut: setupStep && result ? result.timedOut : false,
      droppedBytes: 0,
    };
    return {
      ...(setupCommand ? { setupCommand, setupResult } : {}),
      failingCommand: replayFailing(plan, failingStep),
      failingStep,
      ...(setupStep ? { setupStep } : {}),
    };
  }
  return undefined;
};
