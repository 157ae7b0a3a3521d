/**
 * `npm run bench:queue [-- DELIVERIES]`: the queue at scale, on loopback with a
 * real redis-server.
 *
 * 1. Webhook-to-enqueue latency: signed `workflow_run` deliveries POSTed to
 *    `regreen serve` at 200 per second, each a distinct red build; the latency
 *    is from the POST to the job's `queued` record in the App's store. Measured
 *    with BullMQ (REDIS_URL) and, as the baseline in the same run, with the
 *    in-process queue. Prints median and p99 of both and their ratio.
 * 2. Throughput: 60 trivial jobs (100 ms each, no two in one repository) run by
 *    1 and then 3 `regreen worker` processes; prints jobs/minute and the ratio.
 *
 * Left out: a real GitHub (emulated on loopback), TLS and the network between
 * GitHub and the App, Redis on another host, and real jobs (the probe job
 * sleeps). Writes what it printed to `bench/results/queue.txt`, which
 * docs/benchmarks.md quotes (`--no-record`: print only).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../src/entrypoints/app.ts';
import { bullJobQueue } from '../src/queue/bullmq.ts';
import { silentLogger } from '../src/logger.ts';
import { startEmulatedGitHub } from '../test/support/emulated-github.ts';
import { startRedis } from '../test/support/redis.ts';
import { emulatedPayload } from '../test/support/webhook-payloads.ts';
import { startProbeWorker } from '../test/support/workers.ts';
import { recordResult } from './results.ts';

const deliveries = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 400);
const RATE = 200;
const root = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-queue-'));

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

const latency = async (
  mode: 'bullmq' | 'memory',
  redisUrl: string,
): Promise<{ median: number; p99: number; missing: number }> => {
  const gh = await startEmulatedGitHub(path.join(root, `gh-${mode}`));
  const app = await serve(
    {
      ...process.env,
      APP_ID: String(gh.appId),
      PRIVATE_KEY: gh.privateKey,
      WEBHOOK_SECRET: gh.webhookSecret,
      GITHUB_API_URL: gh.apiUrl,
      REGREEN_DATA_DIR: path.join(root, `data-${mode}`),
      REGREEN_CONCURRENCY: '1',
      REDIS_URL: mode === 'bullmq' ? redisUrl : undefined,
      ANTHROPIC_API_KEY: undefined,
    },
    silentLogger(),
    { port: 0 },
  );
  const sent = new Map<string, number>();
  const bodies = await Promise.all(
    Array.from({ length: deliveries }, async (_, i) => {
      const payload = emulatedPayload(gh, 'bench/app', 'workflow_run', 'completed');
      const sha = `${mode === 'bullmq' ? 'b' : 'a'}${String(i).padStart(39, '0')}`;
      Object.assign(payload.workflow_run as Record<string, unknown>, {
        id: 10_000 + i,
        status: 'completed',
        conclusion: 'failure',
        head_sha: sha,
        head_branch: 'main',
        pull_requests: [],
      });
      return { sha, delivery: await gh.signedDelivery('workflow_run', payload) };
    }),
  );
  const started = Date.now();
  await Promise.all(
    bodies.map(async ({ sha, delivery }, i) => {
      const due = started + (i * 1000) / RATE;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
      sent.set(sha, Date.now());
      const response = await fetch(`${app.url}/api/github/webhooks`, {
        method: 'POST',
        headers: delivery.headers as Record<string, string>,
        body: delivery.body,
      });
      await response.text();
    }),
  );
  // Every delivery's job is recorded once it is in the queue.
  const until = Date.now() + 30_000;
  while (app.store.list({ limit: deliveries * 2 }).length < deliveries && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const records = app.store.list({ limit: deliveries * 2 });
  const latencies = records
    .filter((r) => r.sha && sent.has(r.sha) && r.queuedAt)
    .map((r) => (r.queuedAt ?? 0) - (sent.get(r.sha ?? '') ?? 0));
  await app.close();
  await gh.close();
  return {
    median: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    missing: deliveries - latencies.length,
  };
};

const startWorkers = (n: number, redisUrl: string): Promise<ChildProcess[]> =>
  Promise.all(Array.from({ length: n }, () => startProbeWorker({ redisUrl, concurrency: 1 })));

const throughput = async (workers: number, redisUrl: string, round: string): Promise<number> => {
  const children = await startWorkers(workers, redisUrl);
  const queue = await bullJobQueue({ url: redisUrl });
  const jobs = 60;
  const started = Date.now();
  for (let i = 0; i < jobs; i += 1)
    await queue.enqueue({
      key: `bench ${round} ${i}`,
      group: `bench/r${i}`,
      repo: `bench/r${i}`,
      payload: { kind: 'custom', name: 'probe', group: `bench/r${i}`, data: { sleepMs: 100 } },
    });
  await queue.idle();
  const minutes = (Date.now() - started) / 60_000;
  await queue.close();
  for (const child of children) child.kill('SIGKILL');
  return jobs / minutes;
};

const redis = await startRedis(path.join(root, 'redis'));
try {
  const memory = await latency('memory', redis.url);
  const bull = await latency('bullmq', redis.url);
  const one = await throughput(1, redis.url, 'one');
  const three = await throughput(3, redis.url, 'three');
  const missing = (n: number): string => (n ? ` (${n} missing)` : '');
  const lines = [
    `bench:queue, loopback, a real redis-server; ${deliveries} signed workflow_run deliveries (synthetic: each a distinct red build) POSTed to \`regreen serve\` at ${RATE}/s; latency from the POST to the job's \`queued\` record in the store`,
    `baseline, same run: the in-process queue (no REDIS_URL); for throughput, 1 worker against 3`,
    `(left out: a real GitHub, emulated on loopback; TLS and the network before the App; Redis on another host; real jobs, the probe job sleeps 100 ms)`,
    `webhook → enqueued:`,
    `  in-process queue (baseline): median ${memory.median} ms, p99 ${memory.p99} ms${missing(memory.missing)}`,
    `  BullMQ on Redis:             median ${bull.median} ms, p99 ${bull.p99} ms${missing(bull.missing)}`,
    `  ratio BullMQ/in-process:     median ${(bull.median / Math.max(1, memory.median)).toFixed(2)}×, p99 ${(bull.p99 / Math.max(1, memory.p99)).toFixed(2)}×`,
    `60 trivial jobs (100 ms each) run by \`regreen worker\` processes:`,
    `  1 worker:  ${one.toFixed(0)} jobs/minute`,
    `  3 workers: ${three.toFixed(0)} jobs/minute`,
    `  ratio 3 workers/1: ${(three / one).toFixed(2)}×`,
  ];
  for (const line of lines) console.log(line);
  if (!process.argv.includes('--no-record'))
    console.log(`written to ${path.relative(process.cwd(), recordResult('queue', lines))}`);
} finally {
  await redis.stop();
  rmSync(root, { recursive: true, force: true });
}
