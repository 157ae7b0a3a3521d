import { z } from 'zod';
import type { Env } from '../config/env.ts';
import { describeError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { jobIdFor, type JobSpec } from '../queue/jobs.ts';
import type { JobQueue, Processor } from '../queue/types.ts';
import { harnessError, runTask } from './run.ts';
import { sharedFor, type Shared } from './task-repo.ts';
import type { EvalRunOptions, TaskResult } from './types.ts';
import { TaskSchema, type EvalTask } from './tasks.ts';

/** The custom job name of one eval task. */
export const EVAL_TASK = 'eval-task';

const EvalTaskData = z.object({
  task: z.unknown(),
  policy: z.enum(['agent', 'oracle', 'empty']),
  model: z.string().optional(),
  disableTools: z.array(z.string()),
  outDir: z.string().min(1),
  sandbox: z.enum(['bubblewrap', 'none']),
  reuse: z.boolean(),
  replay: z.enum(['command', 'job']).optional(),
});

/**
 * Spreads an eval run over workers: each task is a job on the queue, and the
 * result comes back through it. The out dir must be one the workers can
 * write (one machine, or a shared file system): workspaces, traces and
 * patches go there as in a local run.
 */
export const queuedTaskRunner = (
  queue: JobQueue,
  options: EvalRunOptions,
  runId: string,
  pollMs = 250,
): ((task: EvalTask) => Promise<TaskResult>) => {
  return async (task) => {
    const group = `eval ${runId} ${task.id}`;
    const spec: JobSpec = {
      key: group,
      group,
      repo: task.repo,
      payload: {
        kind: 'custom',
        name: EVAL_TASK,
        group,
        data: {
          task,
          policy: options.policy,
          ...(options.model ? { model: options.model } : {}),
          disableTools: [...options.disableTools],
          outDir: options.outDir,
          sandbox: options.sandbox,
          reuse: options.reuse !== false,
          ...(options.replay ? { replay: options.replay } : {}),
        },
      },
    };
    await queue.enqueue(spec);
    const id = jobIdFor(spec.key);
    for (;;) {
      if (options.signal?.aborted) return harnessError(task, 'cancelled');
      const outcome = await queue.outcome(id);
      if (outcome.state === 'completed') return outcome.result.data as TaskResult;
      if (outcome.state === 'failed') return harnessError(task, `worker: ${outcome.reason}`);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
};

/** The worker side: runs an eval task taken from the queue, with the worker's environment. */
export const evalTaskProcessor = (env: Env, logger: Logger): Processor => {
  const shared = new Map<string, Shared>();
  return async (payload) => {
    if (payload.kind !== 'custom' || payload.name !== EVAL_TASK)
      throw new Error('not an eval task');
    const data = EvalTaskData.parse(payload.data);
    const task = TaskSchema.parse(data.task);
    const key = `${data.outDir}\0${String(data.reuse)}`;
    let cache = shared.get(key);
    if (!cache) {
      cache = sharedFor({ outDir: data.outDir, reuse: data.reuse });
      shared.set(key, cache);
    }
    const options: EvalRunOptions = {
      tasks: [task],
      policy: data.policy,
      ...(data.model ? { model: data.model } : {}),
      concurrency: 1,
      disableTools: data.disableTools,
      outDir: data.outDir,
      sandbox: data.sandbox,
      env,
      logger,
      reuse: data.reuse,
      ...(data.replay ? { replay: data.replay } : {}),
    };
    let result: TaskResult;
    try {
      result = await runTask(task, options, cache);
    } catch (error) {
      result = harnessError(task, describeError(error));
    }
    return {
      status: result.error ? 'error' : result.resolved ? 'resolved' : 'unresolved',
      summary: result.error ?? `${task.id}: ${result.outcome ?? '?'}`,
      ...(result.spend ? { costUsd: result.spend.costUsd, turns: result.spend.turns } : {}),
      ...(result.tracePath ? { tracePath: result.tracePath } : {}),
      data: result,
    };
  };
};
