import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { tailLines } from '../util/text.ts';
import { gitRemote } from '../workspace/repo/git-remote.ts';
import { sandboxFactory } from '../workspace/sandbox/registry.ts';
import { buildSandboxPolicy } from '../workspace/sandbox/policy.ts';
import type { Sandbox } from '../workspace/sandbox/sandbox.ts';
import { parseJunit, parseTap } from '../../checks/test-reports.ts';
import { readTextInside, removeFileInside } from '../workspace/repo/confined-fs.ts';
import { type SetupCache } from '../workspace/setup/cache.ts';
import { detectSetupCommand, WEAKER_GUESS } from '../workspace/setup/detect.ts';
import { runnerPlan } from '../workspace/setup/task-runner.ts';
import { registryHostsOf } from '../workspace/setup/registries.ts';
import { whichIn } from '../util/which.ts';
import { toolchainStamp } from '../workspace/setup/reads.ts';
import { settingsOf, type Env } from '../config/env.ts';
import { provideManager } from '../job/stages/package-manager.ts';
import { removeTree } from '../util/discard.ts';
import { openJobVolume, releaseOrphanVolumes } from '../workspace/sandbox/job-volume.ts';
import { DEFAULT_COMMAND_LIMITS } from '../workspace/sandbox/sandbox.ts';
import type { EvalTask } from './tasks.ts';

import type { CommandCheck, JudgeOptions } from './types.ts';
import { applyPatch } from './task-repo.ts';

/** The whole TAP output of the test command (a check keeps only its tail). */
const readReportOutput = async (sandbox: Sandbox, task: EvalTask, cwd: string): Promise<string> =>
  (
    await sandbox.run({
      command: runnerPlan(cwd, task.test_command)?.command ?? task.test_command,
      cwd,
      network: 'off',
      timeoutMs: task.timeout_s * 1000,
      env: task.env,
      maxOutputBytes: 16 * 1024 * 1024,
    })
  ).output;

const registries = new WeakMap<object, Promise<readonly string[]>>();
/** The registries the user's configuration and the clients name, asked once per environment. */
const registriesOf = (env: Env): Promise<readonly string[]> => {
  let hosts = registries.get(env);
  if (!hosts) {
    hosts = registryHostsOf(env);
    registries.set(env, hosts);
  }
  return hosts;
};

export interface Judged {
  readonly failToPass: CommandCheck[];
  readonly passToPass: CommandCheck[];
  /** The project's own install failed and only the weaker guess ran: the end of the set-up's output. */
  readonly weakerSetup?: string;
}

/** Runs the person's tests on the change in a fresh clone and a fresh sandbox. */
export const judge = async (
  task: EvalTask,
  taskRepo: string,
  change: string,
  dir: string,
  options: JudgeOptions,
  name = 'judge',
  setupCache?: SetupCache,
): Promise<Judged> => {
  // The task's code gets a volume of the disk limit's size, as a job's does (see job-volume.ts).
  const volumeDir = path.join(dir, `${name}-disk`);
  removeTree(volumeDir);
  const settings = settingsOf(options.env);
  if (settings.jobVolume !== 'off') releaseOrphanVolumes();
  const answer = await openJobVolume({
    dir: volumeDir,
    sizeMb: settings.maxDiskMb ?? DEFAULT_COMMAND_LIMITS.diskMb,
    mode: settings.jobVolume ?? 'auto',
  });
  const volume = 'volume' in answer ? answer.volume : undefined;
  try {
    return await judgeOn(
      { root: volume?.root ?? dir, onVolume: volume !== undefined },
      task,
      taskRepo,
      change,
      dir,
      options,
      name,
      setupCache,
    );
  } finally {
    await volume?.dispose();
    removeTree(volumeDir);
  }
};

const judgeOn = async (
  { root: scratch, onVolume }: { root: string; onVolume: boolean },
  task: EvalTask,
  taskRepo: string,
  change: string,
  dir: string,
  options: JudgeOptions,
  name: string,
  setupCache?: SetupCache,
): Promise<Judged> => {
  const evalDir = path.join(scratch, name);
  rmSync(evalDir, { recursive: true, force: true });
  await gitRemote(
    ['clone', '--quiet', '--no-hardlinks', '--branch', 'regreen-eval', taskRepo, evalDir],
    {
      cwd: dir,
    },
  );
  if (change.trim()) await applyPatch(evalDir, change, 'change');
  if (task.kind === 'hidden' && task.test_patch)
    await applyPatch(evalDir, task.test_patch, 'test patch');
  const privateDir = path.join(scratch, `${name}-private`);
  mkdirSync(privateDir, { recursive: true });
  // pnpm or Yarn as the project's CI has them, as a job gets them.
  const { manager, note: managerNote } = await provideManager(evalDir, options.env);
  const sandbox = await sandboxFactory(
    options.sandbox,
    options.logger,
  )(
    buildSandboxPolicy({
      workspace: evalDir,
      privateDir,
      privateDirOnVolume: onVolume,
      home: settingsOf(options.env).home ?? '/root',
      dataDir: path.join(dir, 'data'),
      registryHosts: await registriesOf(options.env),
      baseEnv: options.env,
      tools: manager ? [manager] : [],
    }),
  );
  try {
    let weakerSetup: string | undefined;
    // A task runner's command (`tox -e py311`) is judged as a job runs it: in the env it makes.
    const runner = runnerPlan(evalDir, task.test_command);
    const setup =
      task.setup ?? detectSetupCommand(evalDir, whichIn(settingsOf(options.env).path), runner);
    if (setup) {
      const install = () =>
        sandbox.run({
          command: setup,
          cwd: evalDir,
          network: 'setup',
          timeoutMs: task.timeout_s * 1000,
          env: task.env,
        });
      const installed = await (setupCache
        ? setupCache.run({
            workspace: evalDir,
            command: setup,
            // The task's environment and the toolchain decide the setup too.
            context: [
              JSON.stringify(task.env ?? {}),
              toolchainStamp(settingsOf(options.env).path),
              manager ? `${manager.name}@${manager.version}` : '',
            ].join('\n'),
            setup: install,
          })
        : install());
      // Fails closed: tests judged without their setup would judge the environment, not the change.
      if (installed.exitCode !== 0)
        throw new Error(
          `the setup failed: \`${setup}\` exit ${installed.exitCode ?? 'killed'}: ${tailLines(installed.output.trimEnd(), 5)}${managerNote && !manager ? ` (${managerNote})` : ''}`,
        );
      // A guess whose project install failed judges without the project: say so with the verdict.
      if (!task.setup && installed.output.includes(WEAKER_GUESS)) {
        const before = installed.output.slice(0, installed.output.indexOf(WEAKER_GUESS));
        weakerSetup = tailLines(before.trimEnd(), 5);
      }
    }
    const judged = (checks: Omit<Judged, 'weakerSetup'>): Judged =>
      weakerSetup === undefined ? checks : { ...checks, weakerSetup };
    const check = async (command: string): Promise<CommandCheck> => {
      const result = await sandbox.run({
        command: runnerPlan(evalDir, command)?.command ?? command,
        cwd: evalDir,
        network: 'off',
        timeoutMs: task.timeout_s * 1000,
        env: task.env,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return {
        command,
        ok: result.exitCode === 0,
        exitCode: result.exitCode,
        tail: tailLines(result.output.trimEnd(), 20),
      };
    };
    if (task.test_reporter) {
      // Test names: one run of the test command, its report read by name. A JUnit report
      // is the run's own: any file at its path (shipped by the change) is removed first,
      // and it is read without following a symlink out of the workspace.
      const junit = path.join(evalDir, task.junit_path ?? 'junit.xml');
      if (task.test_reporter === 'junit') {
        try {
          removeFileInside(evalDir, junit);
        } catch {
          // nothing there
        }
      }
      const output = await readReportOutput(sandbox, task, evalDir);
      const report =
        task.test_reporter === 'tap'
          ? parseTap(output)
          : parseJunit(readTextInside(evalDir, junit) ?? '');
      const byName = (name: string): CommandCheck => {
        const status = report.get(name);
        return {
          command: name,
          ok: status === 'pass',
          exitCode: status === undefined ? null : status === 'pass' ? 0 : 1,
          tail:
            status === undefined
              ? `not in the ${task.test_reporter} report of \`${task.test_command}\``
              : status,
        };
      };
      return judged({
        failToPass: task.fail_to_pass.map(byName),
        passToPass: task.pass_to_pass.map(byName),
      });
    }
    const failToPass: CommandCheck[] = [];
    for (const command of task.fail_to_pass) failToPass.push(await check(command));
    const passToPass: CommandCheck[] = [];
    for (const command of task.pass_to_pass) passToPass.push(await check(command));
    return judged({ failToPass, passToPass });
  } finally {
    await sandbox.dispose();
  }
};
