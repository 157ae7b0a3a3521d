import { rmSync } from 'node:fs';
import path from 'node:path';
import { describeError } from '../errors.ts';
import { judge } from './judge.ts';
import { prepareTaskRepo } from './task-repo.ts';
import type { CommandCheck, JudgeOptions } from './types.ts';
import type { EvalTask } from './tasks.ts';

export interface Validation {
  readonly id: string;
  readonly valid: boolean;
  /** Why the task is invalid: environment, no failure at the base, gold does not pass, flaky. */
  readonly reason?: string;
  /** The end of the output of the command that decided it (what a person reads to see why). */
  readonly tail?: string;
}

const COMMAND_NOT_FOUND = 127;

const summary = (checks: readonly CommandCheck[]): string =>
  checks.map((c) => `\`${c.command}\` exit ${c.exitCode ?? 'killed'}`).join(', ');

/**
 * Validates a task as SWE-bench does, with the same judge as `eval run`:
 * with no change (the empty policy) every fail_to_pass command fails and
 * every pass_to_pass passes; with the gold patch (the oracle) all pass. Each
 * side runs twice: a result that changes between runs is a flaky task.
 */
export const validateTask = async (
  task: EvalTask,
  dir: string,
  options: JudgeOptions,
): Promise<Validation> => {
  const taskRepo = path.join(dir, 'repo');
  try {
    await prepareTaskRepo(task, taskRepo);
    // A hidden task's tests are applied at judging time; a ci task has them committed.
    const runs = [];
    for (const [i, change] of [
      ['empty-1', ''],
      ['gold-1', task.gold_patch],
      ['empty-2', ''],
      ['gold-2', task.gold_patch],
    ] as const) {
      runs.push({ i, result: await judge(task, taskRepo, change, dir, options, `validate-${i}`) });
    }
    const [empty1, gold1, empty2, gold2] = runs.map((r) => r.result);
    if (!empty1 || !gold1 || !empty2 || !gold2)
      return { id: task.id, valid: false, reason: 'not run' };
    const all = [empty1, gold1, empty2, gold2].flatMap((r) => [...r.failToPass, ...r.passToPass]);
    const missing = all.find((c) => c.exitCode === COMMAND_NOT_FOUND);
    if (missing)
      return {
        id: task.id,
        valid: false,
        reason: `environment: \`${missing.command}\` not found (exit 127)`,
        tail: missing.tail,
      };
    const same = (a: readonly CommandCheck[], b: readonly CommandCheck[]) =>
      a.every((c, i) => c.ok === b[i]?.ok);
    if (
      !same(
        [...empty1.failToPass, ...empty1.passToPass],
        [...empty2.failToPass, ...empty2.passToPass],
      ) ||
      !same([...gold1.failToPass, ...gold1.passToPass], [...gold2.failToPass, ...gold2.passToPass])
    )
      return { id: task.id, valid: false, reason: 'flaky: two runs of the same commands disagree' };
    const passingAtBase = empty1.failToPass.filter((c) => c.ok);
    if (passingAtBase.length > 0)
      return {
        id: task.id,
        valid: false,
        reason: `fail_to_pass passes at the base: ${summary(passingAtBase)}`,
        ...(passingAtBase[0]?.tail ? { tail: passingAtBase[0].tail } : {}),
      };
    const brokenAtBase = empty1.passToPass.filter((c) => !c.ok);
    if (brokenAtBase.length > 0)
      return {
        id: task.id,
        valid: false,
        reason: `pass_to_pass fails at the base: ${summary(brokenAtBase)}`,
        ...(brokenAtBase[0]?.tail ? { tail: brokenAtBase[0].tail } : {}),
      };
    const goldFails = [...gold1.failToPass, ...gold1.passToPass].filter((c) => !c.ok);
    // The guess could not install the project: the gold patch was judged without it.
    if (goldFails.length > 0 && gold1.weakerSetup !== undefined)
      return {
        id: task.id,
        valid: false,
        reason: `environment: the project's own install failed (only its test dependencies were installed), and the gold patch does not pass: ${summary(goldFails)}`,
        tail: gold1.weakerSetup,
      };
    if (goldFails.length > 0)
      return {
        id: task.id,
        valid: false,
        reason: `the gold patch does not pass: ${summary(goldFails)}`,
        ...(goldFails[0]?.tail ? { tail: goldFails[0].tail } : {}),
      };
    return { id: task.id, valid: true };
  } catch (error) {
    return { id: task.id, valid: false, reason: `environment: ${describeError(error)}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
