/**
 * The CPU floor of an eval: the CPU-seconds of the runs a validation needs at
 * the least, run bare (no sandbox, no harness) once per distinct task — its
 * set-up, its failing tests on the base (they must fail), then with the
 * person's fix its failing and passing tests (they must pass) — summed
 * over the tasks as the eval runs them and divided by the cores: no harness
 * on this machine can validate them faster. CPU-seconds are the children's
 * user and system time as bash's `times` reports them.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { applyPatch, prepareTaskRepo } from '../src/eval/task-repo.ts';
import type { EvalTask } from '../src/eval/tasks.ts';
import { detectSetupCommand } from '../src/workspace/setup/detect.ts';

const seconds = (field: string): number => {
  const match = /^(\d+)m([\d.]+)s$/.exec(field);
  if (!match) throw new Error(`bash's times printed ${field}`);
  return Number(match[1]) * 60 + Number(match[2]);
};

/** The CPU-seconds `command` and everything it started took, and whether it exited 0. */
const cpuOf = (command: string, cwd: string): { cpu: number; ok: boolean } => {
  const result = spawnSync(
    'bash',
    ['-c', `(${command}) >/dev/null 2>&1; status=$?; times; exit $status`],
    { cwd, encoding: 'utf8', env: { ...process.env, CI: '1' } },
  );
  const children = result.stdout.trim().split('\n').at(-1)?.trim().split(/\s+/) ?? [];
  return { cpu: seconds(children[0] ?? '') + seconds(children[1] ?? ''), ok: result.status === 0 };
};

/** CPU-seconds per task id (the runs of one validation), measured under `root`. */
export const cpuFloor = async (
  tasks: readonly EvalTask[],
  root: string,
): Promise<{ perTask: Map<string, number>; cores: number }> => {
  const perTask = new Map<string, number>();
  for (const task of tasks) {
    const dir = path.join(root, `floor-${task.id}`);
    await prepareTaskRepo(task, dir);
    if (task.kind !== 'ci' && task.test_patch) await applyPatch(dir, task.test_patch, 'test patch');
    let cpu = 0;
    const setup = task.setup ?? detectSetupCommand(dir, () => undefined);
    if (setup) {
      const ran = cpuOf(setup, dir);
      if (!ran.ok) throw new Error(`${task.id}: the set-up \`${setup}\` failed`);
      cpu += ran.cpu;
    }
    for (const command of task.fail_to_pass) {
      const ran = cpuOf(command, dir);
      if (ran.ok) throw new Error(`${task.id}: \`${command}\` passes on the base`);
      cpu += ran.cpu;
    }
    await applyPatch(dir, task.gold_patch, 'gold patch');
    for (const command of [...task.fail_to_pass, ...task.pass_to_pass]) {
      const ran = cpuOf(command, dir);
      if (!ran.ok) throw new Error(`${task.id}: \`${command}\` fails with the fix`);
      cpu += ran.cpu;
    }
    perTask.set(task.id, cpu);
  }
  return { perTask, cores: os.cpus().length };
};
