/** The commands a job runs: the failing one and the suite, from CI's report, the config, a replayed job and a task runner. */
import type { RepoConfig } from '../../config/repo-config.ts';
import type { FailureReport } from '../../intake/failure-report.ts';
import { detectTestCommand } from '../../workspace/setup/detect.ts';
import { runnerPlan, withRunner, type RunnerPlan } from '../../workspace/setup/task-runner.ts';
import { replayFailing, type Replay } from './replay.ts';

const ownCommands = (
  report: FailureReport,
  workspace: string,
  config: RepoConfig,
  plan: Replay | undefined,
): { failingCommand: string | undefined; testCommand: string | undefined } => {
  const detected = detectTestCommand(workspace);
  const failing = plan?.replay.failing;
  // CI's own command (the trigger's, or the replayed job's failing step) is the suite too: run_tests,
  // the fresh check and no-regression run what CI runs. A project's default only without one.
  const replayed = plan && failing ? replayFailing(plan, failing) : undefined;
  // A job found by the trigger's command runs that step as CI did (its directory, env, toolchains).
  const fromCi = plan?.fromCommand ? (replayed ?? report.command) : (report.command ?? replayed);
  const failingCommand = fromCi ?? (plan ? undefined : (config.test_command ?? detected));
  // A replayed job's judged runs are its own step's, never the project's default.
  const suite = config.test_command ?? (fromCi === undefined && !plan ? detected : undefined);
  return {
    failingCommand,
    testCommand: suite,
  };
};

/**
 * The job's failing command and suite, each run in its task runner's environment when the command
 * runs one (tox, nox, hatch…) and no workflow job is replayed (a replay's steps set it up as CI did).
 */
export const resolveCommands = (
  report: FailureReport,
  workspace: string,
  config: RepoConfig,
  plan: Replay | undefined,
): {
  resolved: { failingCommand: string | undefined; testCommand: string | undefined };
  runner: RunnerPlan | undefined;
} => {
  const commands = ownCommands(report, workspace, config, plan);
  const runner = plan ? undefined : runnerPlan(workspace, commands.failingCommand);
  return { resolved: withRunner(workspace, commands, runner), runner };
};
