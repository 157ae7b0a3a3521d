import { z } from 'zod';
import { defineTool, fail, ok, type Tool } from '../../../tools/types.ts';
import type { WorkerInfo, WorkerPool } from './pool.ts';

const describe = (info: WorkerInfo): string =>
  `${info.id} "${info.label}" tier ${info.tier}${info.readOnly ? ' (read-only)' : ''}: ${info.state}, ${(info.elapsedMs / 1000).toFixed(1)}s${info.lastResult ? `\n  ${info.lastResult.split('\n').join('\n  ')}` : ''}`;

/** The five vibe_* tools over one job's worker pool. All read level: the gate is on the workers' own tools. */
export const workerTools = (pool: WorkerPool): Tool[] => [
  defineTool({
    name: 'vibe_spawn',
    level: 'read',
    description:
      'Start a background worker: a sub-agent with its own conversation, in the same workspace, that does `brief` and reports back. Returns a worker_id at once; the worker keeps running. tier "fast" for mechanical work with a clear spec, "good" for design, judgment or reviewing a fast worker. read_only: the worker only reads.',
    schema: z.object({
      brief: z.string().min(1),
      label: z.string().min(1).max(60),
      tier: z.enum(['fast', 'good']).default('fast'),
      read_only: z.boolean().default(false),
    }),
    run: async (input) => {
      const spawned = await pool.spawn({
        brief: input.brief,
        label: input.label,
        tier: input.tier,
        readOnly: input.read_only,
      });
      return 'error' in spawned
        ? fail(spawned.error)
        : ok(
            `started worker_id "${spawned.id}" (${input.label}, ${input.tier}); call vibe_wait to get its result`,
          );
    },
  }),
  defineTool({
    name: 'vibe_send',
    level: 'read',
    description:
      'Give a finished worker more to do: the message is appended to its brief and it runs again, continuing its conversation.',
    schema: z.object({ worker_id: z.string().min(1), message: z.string().min(1) }),
    run: (input) => {
      const sent = pool.send(input.worker_id, input.message);
      return Promise.resolve(
        'error' in sent ? fail(sent.error) : ok(`${input.worker_id} is running again`),
      );
    },
  }),
  defineTool({
    name: 'vibe_wait',
    level: 'read',
    description:
      'Wait for a worker to finish, at most timeout_seconds (default 120). Says whether it finished or is still running, with its result.',
    schema: z.object({
      worker_id: z.string().min(1),
      timeout_seconds: z.number().positive().max(1800).default(120),
    }),
    run: async (input, _ctx, signal) => {
      const waited = await pool.wait(input.worker_id, input.timeout_seconds * 1000, signal);
      if ('error' in waited) return fail(waited.error);
      return ok(
        `${waited.finished ? 'finished' : `still running after ${input.timeout_seconds}s`}: ${describe(waited.info)}`,
      );
    },
  }),
  defineTool({
    name: 'vibe_kill',
    level: 'read',
    description: 'Stop a worker; its tool call in progress is cancelled.',
    schema: z.object({ worker_id: z.string().min(1) }),
    run: async (input) => {
      const killed = await pool.kill(input.worker_id);
      return 'error' in killed ? fail(killed.error) : ok(`stopped: ${describe(killed.info)}`);
    },
  }),
  defineTool({
    name: 'vibe_list',
    level: 'read',
    description: 'List the workers: tier, state, elapsed time, last result.',
    schema: z.object({}),
    run: () => {
      const workers = pool.list();
      return Promise.resolve(
        ok(workers.length === 0 ? 'no workers' : workers.map(describe).join('\n')),
      );
    },
  }),
];
