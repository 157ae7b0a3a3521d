// A processor for `custom` jobs in tests and benchmarks: it appends what it does to PROBE_LOG
// (one JSON line per start and end, with its pid) and sleeps for the job's `sleepMs`.
import { appendFileSync } from 'node:fs';
import type { Processor } from '../../src/queue/types.ts';

export const createProcessor = (env: NodeJS.ProcessEnv): Processor => {
  const log = env.PROBE_LOG;
  const write = (entry: Record<string, unknown>): void => {
    if (log)
      appendFileSync(log, `${JSON.stringify({ ...entry, pid: process.pid, at: Date.now() })}\n`);
  };
  return async (payload, job) => {
    if (payload.kind !== 'custom') throw new Error('the probe runs custom jobs only');
    write({ event: 'start', id: job.id, group: payload.group, attempt: job.attempt });
    await new Promise((resolve) => setTimeout(resolve, Number(payload.data.sleepMs ?? 0)));
    const wanted = Number(payload.data.costUsd ?? 0);
    const costUsd = Math.min(wanted, job.costCeilingUsd ?? wanted);
    write({ event: 'end', id: job.id, group: payload.group, costUsd });
    return { status: 'done', summary: `slept ${Number(payload.data.sleepMs ?? 0)} ms`, costUsd };
  };
};
