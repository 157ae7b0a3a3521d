import { mkdirSync } from 'node:fs';
import { excludeSetupArtifacts } from './setup-exclusions.ts';
import { readTextInside } from '../../workspace/repo/confined-fs.ts';
import type { Disposables } from '../../util/disposables.ts';
import path from 'node:path';
import {
  CONFIG_PATH,
  defaultRepoConfig,
  parseRepoConfig,
  type RepoConfig,
} from '../../config/repo-config.ts';
import { RegreenError } from '../../errors.ts';
import { cloneWorkspace, type RepoSource } from '../../workspace/repo/clone.ts';
import { readContextFile, type ContextFile } from '../../workspace/repo/context-file.ts';
import { boundRepoConfig, operatorCeilings } from '../../config/operator-bounds.ts';
import type { CommandResult } from '../../workspace/run-process.ts';
import { createSetupCache, type SetupCache, type SetupRun } from '../../workspace/setup/cache.ts';
import { toolchainStamp, withReads } from '../../workspace/setup/reads.ts';
import {
  DEFAULT_COMMAND_LIMITS,
  timedRuns,
  withLiveOutput,
  type Sandbox,
} from '../../workspace/sandbox/sandbox.ts';
import { buildSandboxPolicy } from '../../workspace/sandbox/policy.ts';
import { detectSetupCommand } from '../../workspace/setup/detect.ts';
import { resolveCommands } from './job-commands.ts';
import { PRIVATE_TOOLCHAINS } from '../../workspace/setup/private-toolchains.ts';
import { whichIn } from '../../util/which.ts';
import { settingsOf } from '../../config/env.ts';
import type { JobContext } from '../context.ts';
import type { Intake } from './intake.ts';
import { jobModel } from './agent-budget.ts';
import type { Model } from '../../model/types.ts';
import { keepSetupCaches, seedSetupCaches } from './setup-caches.ts';
import { providedManager, providePackageManager } from './package-manager.ts';
import { discardAtEnd, keepChange } from './scratch.ts';
import { closedRootsNote, sandboxUidOf } from '../../workspace/sandbox/identity.ts';
import {
  hostLimitEnforcement,
  unboundLimitsNote,
} from '../../workspace/sandbox/limit-enforcement.ts';
import { planReplay, replaySetup, toolchainTools, useToolchains } from './replay.ts';
import { ciPlansOf, howFound, runWorkflowSteps, withAllToolchains } from './job-steps.ts';
import type { ReplayedRun } from './job-steps.ts';

/** A set-up command in a few words: its first line, without its fallback (`|| { … }`), cut. */
export const setupHeadline = (command: string): string => {
  const first = command.split('\n')[0] ?? '';
  const fallback = first.indexOf(' || {');
  const main = fallback === -1 ? first : first.slice(0, fallback);
  if (main.length > 100) return `${main.slice(0, 99)}…`;
  return main === command ? main : `${main} …`;
};

/** The prepare stage's progress line: the base, and the set-up by its steps' names (a replay is a script). */
export const preparedLine = (v: Prepared): string => {
  const steps = [...(v.setupCommand ?? '').matchAll(/^echo '\[regreen\] step: (.*)'$/gm)].map(
    (match) => match[1],
  );
  const setup =
    steps.length > 0
      ? `replayed ${steps.length} step${steps.length === 1 ? '' : 's'} (${steps.join('; ')})${
          v.matrixEntry ? ` of matrix entry ${v.matrixEntry}` : ''
        }`
      : setupHeadline(v.setupCommand ?? '');
  return `${v.baseSha.slice(0, 12)}; setup: ${v.setupCommand ? `${setup} → exit ${v.setupResult?.exitCode ?? 'killed'}` : 'none'}${v.runnerNote ? `; ${v.runnerNote}` : ''}`;
};

export interface Prepared {
  readonly intake: Intake;
  readonly workspace: string;
  readonly baseSha: string;
  /** The branch checked out under CI's name, in the workspace and every fresh tree (undefined: detached). */
  readonly branch: string | undefined;
  readonly config: RepoConfig;
  readonly context: ContextFile | undefined;
  readonly setupCommand: string | undefined;
  readonly setupResult: CommandResult | undefined;
  /** The command that failed in CI (or that the user names). */
  readonly failingCommand: string;
  /** The full test command, for the no-regression check and run_tests. */
  readonly testCommand: string;
  readonly sandbox: Sandbox;
  /** How the workflow's job was replayed (steps, toolchains, what was skipped), when it was. */
  readonly replayNotes: readonly string[];
  /** The matrix entry a replayed job ran with (`os=ubuntu-latest, python-version=3.12`). */
  readonly matrixEntry?: string;
  /** The job's model, made as soon as the config was read (undefined: recipes only). */
  readonly model: Model | undefined;
  /** Which task runner's environment the set-up reproduced, and what runs in it (`task-runner.ts`). */
  readonly runnerNote?: string;
  /** The workflow steps the set-up replayed and the step the failing command runs, when a job was replayed. */
  readonly replayed?: ReplayedRun;
  /** Where the failing command came from (the command given, a workflow step, the project's default). */
  readonly commandSource: string;
  /** The workflow jobs run to find the failure, each with how it ended (none: only the command ran). */
  readonly tried: readonly string[];
  /** Every step of the workflow's jobs passed while they were searched: nothing failed to reproduce. */
  readonly passed?: CommandResult;
}

/** The repository's config, read through the confined reader (a symlink, a FIFO or a huge file is ignored). */
export const readRepoConfig = (workspace: string): RepoConfig => {
  const text = readTextInside(workspace, path.join(workspace, CONFIG_PATH));
  return text === undefined ? defaultRepoConfig() : parseRepoConfig(text);
};

/** Creates a sandbox for a workspace with the job's policy; disposed when the job ends. */
export const openSandbox = async (
  job: JobContext,
  workspace: string,
  name: string,
  disposables: Disposables = job.disposables,
  /** Its commands run beside the stage (a fresh tree): their output never hides the stage's own. */
  background = false,
): Promise<Sandbox> => {
  const privateDir = path.join(job.scratch, `${name}-private`);
  mkdirSync(privateDir, { recursive: true });
  const sandbox = await job.deps.sandbox(
    buildSandboxPolicy({
      workspace,
      privateDir,
      privateDirOnVolume: job.scratchOnVolume,
      home: job.deps.home,
      dataDir: job.deps.dataDir,
      registryHosts: job.deps.registryHosts,
      baseEnv: job.deps.env,
      tools: [
        ...[providedManager(job)].filter((tool) => tool !== undefined),
        ...toolchainTools(job),
      ],
    }),
  );
  disposables.add(() => sandbox.dispose());
  const timed = timedRuns(sandbox, (run) => job.trace.emit({ type: 'run', ...run }));
  const progress = job.deps.progress;
  // The front door hears the last line of every command as it runs.
  return progress
    ? withLiveOutput(timed, (line) =>
        progress({ kind: 'output', line, ...(background ? { background } : {}) }),
      )
    : timed;
};

const NO_COMMAND =
  'no command to reproduce: pass --command, set test_command in .github/regreen.yml, add a "test" script to package.json, or name a workflow job with --job';

const ownSetups = new WeakMap<JobContext, SetupCache>();

/**
 * The setup step, or its artifacts restored: from the harness's setup cache
 * when the job has one, else from the job's own (the fresh check restores
 * what the job's setup installed when the fix left every manifest and
 * lockfile as it was). `REGREEN_SETUP_SNAPSHOT`: `cow` (the default) keeps
 * it only where the file system copies by copy-on-write, `always` copies
 * anyway (where a copy is cheaper than an install), `off` never.
 */
export const runSetup = async (
  job: JobContext,
  workspace: string,
  command: string,
  setup: () => Promise<CommandResult>,
): Promise<SetupRun> => {
  const snapshot = settingsOf(job.deps.env).setupSnapshot ?? 'cow';
  // A replayed setup action installs into the sandbox's home (a Python environment, global
  // tools), which no workspace snapshot holds: such a setup runs each time.
  const outsideWorkspace = command.includes(PRIVATE_TOOLCHAINS);
  if ((!job.deps.setupCache && snapshot === 'off') || outsideWorkspace) {
    const { result, reads } = await withReads(workspace, setup);
    return reads ? { ...result, reads } : result;
  }
  let cache = job.deps.setupCache ?? ownSetups.get(job);
  if (!cache) {
    const dir = path.join(job.scratch, 'setup-snapshot');
    cache = createSetupCache(dir, { copyOnWriteOnly: snapshot === 'cow' });
    ownSetups.set(job, cache);
    job.disposables.add(discardAtEnd(job, dir));
  }
  const manager = providedManager(job);
  const context = [
    toolchainStamp(settingsOf(job.deps.env).path),
    manager ? `${manager.name}@${manager.version}` : '',
  ].join('\n');
  return cache.run({ workspace, command, context, setup });
};

/** Clones the job's repository; a URL is cloned with the forge's credentials (host-side only). */
export const cloneForJob = async (
  job: JobContext,
  source: RepoSource,
  ref: string | undefined,
  dest: string,
  /** The branch name CI had (the fresh trees clone a sha, under the workspace's name). */
  branch?: string,
): ReturnType<typeof cloneWorkspace> =>
  cloneWorkspace({
    source,
    ref,
    dest,
    ...(branch !== undefined ? { branch } : {}),
    maxCheckoutBytes:
      (settingsOf(job.deps.env).maxDiskMb ?? DEFAULT_COMMAND_LIMITS.diskMb) * 1024 * 1024,
    ...(job.deps.forge.gitAuth && !source.localRoot
      ? { auth: await job.deps.forge.gitAuth() }
      : {}),
  });

/** Clone at the ref, read config and context, open the sandbox, run setup. */
export const prepare = async (job: JobContext, intakeResult: Intake): Promise<Prepared> => {
  const workspace = path.join(job.scratch, 'workspace');
  job.trace.emit({ type: 'workspace', path: workspace });
  const cloned = await cloneForJob(
    job,
    intakeResult.source,
    intakeResult.report.ref,
    workspace,
    intakeResult.report.branch,
  );
  // Disposed before the job's volume: what the job changed outlives its trees.
  job.disposables.add(() => keepChange(job, workspace, cloned.baseSha));
  const bounded = boundRepoConfig(
    readRepoConfig(workspace),
    operatorCeilings(job.deps.env, job.deps.budget),
  );
  for (const note of bounded.notes) job.trace.emit({ type: 'note', message: `config: ${note}` });
  const repoConfig = bounded.config;
  const config: RepoConfig = {
    ...repoConfig,
    protected: [...repoConfig.protected, ...(job.deps.protectedPaths ?? [])],
    timeouts: {
      ...repoConfig.timeouts,
      ...(job.deps.commandTimeoutSeconds
        ? { command_seconds: job.deps.commandTimeoutSeconds }
        : {}),
    },
    tools: {
      ...repoConfig.tools,
      disabled: [...repoConfig.tools.disabled, ...(job.deps.disabledTools ?? [])],
    },
  };
  // A model the repository's config names that cannot be used (no key, unknown, unpriced)
  // ends the job here, before set-up and the reproduce run spend minutes.
  const model = jobModel(job, config, workspace);
  const context = readContextFile(workspace);
  const { report } = intakeResult;
  const { plan, note } = planReplay(report, workspace, job.deps.home, job.deps.env);
  // No command, no job: the jobs CI runs on a push or pull request are run as CI would.
  const ciPlans =
    plan || report.command || report.task || config.test_command
      ? []
      : ciPlansOf(report, workspace, job.deps.home, job.deps.env);
  const anyPlan = plan ?? ciPlans[0];
  useToolchains(job, plan ?? withAllToolchains(ciPlans));
  if (note) job.trace.emit({ type: 'note', message: note });
  for (const line of plan?.notes ?? [])
    job.trace.emit({ type: 'note', message: `replay: ${line}` });
  const { resolved, runner } = resolveCommands(intakeResult.report, workspace, config, anyPlan);
  if (runner) job.trace.emit({ type: 'note', message: `setup: ${runner.note}` });
  // Without a workflow step, a job to replay has to name its steps; anything else names a command.
  if (!resolved.failingCommand && !(plan && report.workflowJob) && ciPlans.length === 0)
    throw new RegreenError('usage', NO_COMMAND);
  const managerNote = await providePackageManager(job, workspace, plan);
  if (managerNote) job.trace.emit({ type: 'note', message: managerNote });
  const sandbox = await openSandbox(job, workspace, 'job');
  const unbound =
    sandbox.kind === 'bubblewrap'
      ? unboundLimitsNote(
          hostLimitEnforcement(
            job.scratch !== job.dir
              ? {}
              : { volumeUnavailable: 'the job has none: see its disk note' },
          ),
        )
      : undefined;
  if (unbound) job.trace.emit({ type: 'note', message: unbound });
  const closed =
    sandbox.kind === 'bubblewrap' && process.geteuid?.() === 0
      ? closedRootsNote(sandbox.policy.readable, sandboxUidOf(settingsOf(job.deps.env).sandboxUid))
      : undefined;
  if (closed) job.trace.emit({ type: 'note', message: closed });
  const runSetupCommand = (command: string): Promise<CommandResult> => {
    // Only a setup that really runs (not one the setup cache restores) gets the npm cache seeded.
    seedSetupCaches(job, sandbox, workspace);
    return sandbox.run({
      command,
      cwd: workspace,
      network: 'setup',
      timeoutMs: config.timeouts.setup_seconds * 1000,
      signal: job.signal,
    });
  };
  let setupCommand =
    config.setup_command ??
    (plan ? replaySetup(plan) : undefined) ??
    detectSetupCommand(workspace, whichIn(settingsOf(job.deps.env).path), runner);
  let setupResult: CommandResult | undefined;
  let failingCommand = resolved.failingCommand;
  let steps: Awaited<ReturnType<typeof runWorkflowSteps>>['steps'];
  if (anyPlan && !failingCommand) {
    // `--job`, or no command at all: the steps run in order until one fails, after the config's own setup.
    const ran = await runWorkflowSteps(config.setup_command, plan, ciPlans, runSetupCommand);
    ({ setupCommand, setupResult, failingCommand, steps } = ran);
    for (const line of plan ? [] : [...(steps?.plan.notes ?? []), ...(steps?.tried ?? [])])
      job.trace.emit({ type: 'note', message: `replay: ${line}` });
  } else if (setupCommand) {
    const command = setupCommand;
    setupResult = await runSetup(job, workspace, command, () => runSetupCommand(command));
  }
  // The setup is over: what it downloaded is kept for the fresh check, out of the agent's reach.
  if (setupCommand) keepSetupCaches(job, sandbox);
  if (setupCommand) await excludeSetupArtifacts(workspace);
  if (!failingCommand) throw new RegreenError('usage', NO_COMMAND);
  const testCommand = resolved.testCommand ?? failingCommand;
  return {
    intake: intakeResult,
    workspace,
    baseSha: cloned.baseSha,
    branch: cloned.branch,
    config,
    context,
    setupCommand,
    setupResult,
    failingCommand,
    testCommand,
    sandbox,
    replayNotes: [
      ...((steps?.plan ?? plan)?.notes ?? []),
      ...(managerNote ? [managerNote] : []),
      ...(runner ? [runner.note] : []),
    ],
    ...(plan?.replay.entry ? { matrixEntry: plan.replay.entry } : {}),
    model,
    ...(runner ? { runnerNote: runner.note } : {}),
    ...howFound(report, config.test_command, plan, steps),
  };
};
