import type { Command } from 'commander';
import { listenOn, parsePort } from '../util/listen.ts';
import { SUMMARIES } from '../cli/summaries.ts';
import { untilStopped, type CliContext } from '../cli/context.ts';
import { drainSecondsOf, endNow } from '../cli/drain.ts';
import { recoverJobs, type Recovered } from './app-recovery.ts';
import { logJobEvent } from '../queue/job-log.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { Probot } from 'probot';
import { webhookGate } from '../github/webhook-gate.ts';
import type { Env } from '../config/env.ts';
import { describeError } from '../errors.ts';
import { credentialsFor, modelLine } from './app-credentials.ts';
import { regreenApp } from '../github/handlers.ts';
import type { FailureResult } from '../github/run-failure.ts';
import { guardsFromEnv } from '../github/settings.ts';
import type { Logger } from '../logger.ts';
import { createMetrics, metricsHandler } from '../observe/metrics.ts';
import { connectRedis } from '../queue/bullmq.ts';
import { jobsPageHandler } from '../observe/jobs-page.ts';
import type { JobEvent, JobQueue, Processor } from '../queue/types.ts';
import type { JobStore, SuspendedJob } from '../store/types.ts';
import type { SuspendedJobData } from '../github/processor.ts';
import type { JobPayload } from '../queue/jobs.ts';
import { settingsOf } from '../config/env.ts';

type ResumePayload = Extract<JobPayload, { kind: 'resume' }>;
import {
  appCredentials,
  appProcessor,
  loadJobStore,
  installationClients,
  openQueue,
  required,
  spendCapFromEnv,
  storeFileOf,
} from './app-wiring.ts';

export interface Served {
  readonly url: string;
  readonly queue: JobQueue;
  readonly store: JobStore;
  /** What the start found unfinished from the last run, and did with it. */
  readonly recovered: Recovered;
  /**
   * Stops: jobs running here get `graceMs` (default: no bound) to finish, the
   * rest are handed back to run at the next start; returns their ids.
   */
  close(graceMs?: number): Promise<{ readonly handedBack: readonly string[] }>;
}

/**
 * `regreen serve`: the GitHub App. Probot's usual environment (APP_ID,
 * PRIVATE_KEY, WEBHOOK_SECRET, PORT; GITHUB_API_URL for GitHub Enterprise),
 * webhooks at /api/github/webhooks, health at /healthz, Prometheus metrics at
 * /metrics (REGREEN_METRICS_SECRET, else the dashboard secret), the jobs page
 * at /jobs (REGREEN_DASHBOARD_SECRET). Jobs run in
 * this process, or — with REDIS_URL — in `regreen worker` processes.
 */
export const serve = async (
  env: Env,
  logger: Logger,
  options: {
    onResult?: (key: string, result: FailureResult) => void;
    port?: number;
    /** Runs `custom` jobs (as `regreen worker --processor` does). */
    custom?: Processor;
  } = {},
): Promise<Served> => {
  const credentials = appCredentials(env, 'regreen serve');
  const probot = new Probot({
    ...credentials,
    secret: required(settingsOf(env).webhookSecret, 'WEBHOOK_SECRET', 'regreen serve'),
    ...(settingsOf(env).githubApiUrl ? { baseUrl: settingsOf(env).githubApiUrl } : {}),
    log: logger.child({ name: 'probot' }),
  });
  const store = (await loadJobStore())(storeFileOf(env));
  // The processor enqueues (triage → fixes) into the queue it is part of.
  const late: { queue?: JobQueue } = {};
  const metrics = createMetrics(() => late.queue);
  const onEvent = (event: JobEvent): void => {
    logJobEvent(logger, event);
    try {
      store.record(event);
      if (event.type === 'completed' && event.result.status === 'suspended') {
        const { payload } = event.result.data as SuspendedJobData;
        store.suspend({
          jobId: event.id,
          questionId: payload.state.pending.id,
          deadline: payload.state.pending.deadline,
          state: { payload } satisfies SuspendedJobData,
          createdAt: event.at,
        });
      }
    } catch (error) {
      logger.error({ err: describeError(error), job: event.id }, 'cannot record the job');
    }
    metrics.observe(event);
  };
  let redis: Redis | undefined;
  const settings = settingsOf(env);
  if (settings.redisUrl && settings.spendCapUsd !== undefined)
    redis = await connectRedis(settings.redisUrl);
  const cap = spendCapFromEnv(env, redis ? { redis } : { store });
  const enqueue = (spec: Parameters<JobQueue['enqueue']>[0]) =>
    late.queue ? late.queue.enqueue(spec) : Promise.resolve(false);
  const jobQueue = await openQueue({
    env,
    logger,
    onEvent,
    processor: appProcessor({
      env,
      logger,
      enqueue,
      ...(cap ? { spendCap: cap } : {}),
      ...(options.onResult ? { onResult: options.onResult } : {}),
      ...(options.custom ? { custom: options.custom } : {}),
    }),
  });
  late.queue = jobQueue;
  // What the last run left unfinished: queued again, ended, or caught up with, before new work.
  const recovered = await recoverJobs({
    store,
    queue: jobQueue,
    record: onEvent,
    now: () => Date.now(),
    logger,
  });
  const resumeSuspended = (job: SuspendedJob, why: string): void => {
    const taken = store.takeSuspended(job.jobId);
    if (!taken) return;
    const payload = (taken.state as { payload: ResumePayload }).payload;
    const repo = `${payload.target.owner}/${payload.target.repo}`;
    void jobQueue
      .enqueue({ key: `resume ${taken.questionId} ${why}`, group: repo, repo, payload })
      .catch((error: unknown) => {
        logger.error({ err: describeError(error) }, 'cannot queue a resumed job; it stays waiting');
        store.suspend(taken);
      });
  };
  await probot.load(
    regreenApp({
      queue: jobQueue,
      guards: guardsFromEnv(env),
      logger,
      clientFor: installationClients(env, credentials, logger),
      suspended: {
        onPull: (owner, repo, pullNumber) =>
          store.suspendedAll().filter((s) => {
            const { target, state } = (s.state as { payload: ResumePayload }).payload;
            const on = state.pending.pullNumber ?? target.pullNumber;
            return target.owner === owner && target.repo === repo && on === pullNumber;
          }),
        resume: (job, why) => resumeSuspended(job, why),
      },
    }),
  );
  // The door: headers and size before the body, the signature over the raw bytes before parsing.
  const webhooks = webhookGate({
    secret: required(settings.webhookSecret, 'WEBHOOK_SECRET', 'regreen serve'),
    logger,
    receive: (event) =>
      probot.receive({
        id: event.id,
        name: event.name,
        payload: event.payload,
      } as Parameters<Probot['receive']>[0]),
  });
  const jobsPage = jobsPageHandler({ store, secret: settings.dashboardSecret });
  const metricsPage = metricsHandler({
    metrics,
    secret: settings.metricsSecret ?? settings.dashboardSecret,
    setting: settings.metricsSecret ? 'REGREEN_METRICS_SECRET' : 'REGREEN_DASHBOARD_SECRET',
  });
  // Jobs waiting for a person whose deadline passed go back on the queue (also after a restart).
  const sweep = (): void => {
    for (const due of store.suspendedDue(Date.now())) resumeSuspended(due, 'deadline');
  };
  sweep();
  const sweeper = setInterval(sweep, settings.questionSweepMs ?? 30_000);
  sweeper.unref();
  // Idle and slow connections are checked every 2 s (Node's default is 30 s), and there are at most 512.
  const server: Server = createServer({ connectionsCheckingInterval: 2_000 }, (req, res) => {
    if (req.url === '/healthz') {
      void jobQueue.counts().then(
        (counts) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ok: true, queue: jobQueue.kind, ...counts }));
        },
        (error: unknown) => {
          res.writeHead(503, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ok: false, error: describeError(error) }));
        },
      );
      return;
    }
    if (metricsPage(req, res)) return;
    if (jobsPage(req, res)) return;
    if ((req.url ?? '').split('?')[0] === '/api/github/webhooks') return webhooks(req, res);
    res.writeHead(404);
    res.end();
  });
  // Slow clients: headers within 10 s, a whole request within 30 s.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.maxConnections = 512;
  await listenOn(server, options.port ?? settings.port ?? 3000, settings.host ?? '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  const listening = settings.host ?? '127.0.0.1';
  return {
    url: `http://${listening === '0.0.0.0' || listening === '::' ? '127.0.0.1' : listening}:${port}`,
    queue: jobQueue,
    store,
    recovered,
    close: async (graceMs) => {
      clearInterval(sweeper);
      // Webhooks still arrive while the jobs drain: what they queue runs at the next start.
      const closed = await jobQueue.close(graceMs);
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      redis?.disconnect();
      store.close();
      return closed;
    },
  };
};

/** `regreen serve`. */
export const registerServe = (program: Command, { env, logger, setExit }: CliContext): void => {
  program
    .command('serve')
    .description(SUMMARIES.serve)
    .option('--port <n>', 'port to listen on (default: $PORT, else 3000)')
    // Not `--env-file`: Node 20 and 22 take that word as their own option even after the script
    // (nodejs/node#54232) and exit 9 when the file does not exist yet.
    .option(
      '--dotenv <file>',
      'where the App credentials (and the model key) are read from, or written by the first-run registration',
      '.env',
    )
    .option(
      '--public-url <url>',
      'where GitHub reaches this server (first run: webhooks, redirect)',
    )
    .option('--org <name>', 'first run: register the App under this organization')
    .option(
      '--host <address>',
      'address to listen on (default: $HOST, else 127.0.0.1: only this machine, e.g. behind a reverse proxy; 0.0.0.0 for every interface)',
    )
    .action(
      async (opts: {
        port?: string;
        dotenv: string;
        publicUrl?: string;
        org?: string;
        host?: string;
      }) => {
        const port =
          opts.port !== undefined ? parsePort(opts.port) : (settingsOf(env).port ?? 3000);
        const hosted: Env = opts.host !== undefined ? { ...env, HOST: opts.host } : env;
        const withCredentials = await credentialsFor(hosted, logger, {
          ...opts,
          envFile: opts.dotenv,
          port,
        });
        const served = await serve(withCredentials, logger, { port });
        const host = settingsOf(withCredentials).host ?? '127.0.0.1';
        process.stderr.write(
          `[regreen] App listening on ${served.url}/api/github/webhooks${host === '127.0.0.1' || host === 'localhost' ? ' (this machine only: GitHub reaches it through a reverse proxy to this port, or start it with --host 0.0.0.0)' : ''}; model: ${modelLine(withCredentials)}\n`,
        );
        const drainSeconds = drainSecondsOf(withCredentials);
        // In-process jobs get the drain to finish; with Redis they belong to the workers.
        await untilStopped(
          served.queue.kind === 'memory'
            ? `stopping: the jobs running here have ${drainSeconds} s to finish, then run again at the next start`
            : 'stopping',
        );
        const { handedBack } = await served.close(drainSeconds * 1000);
        setExit(0);
        if (handedBack.length > 0)
          endNow(`${handedBack.length} unfinished job(s) recorded to run at the next start`);
      },
    );
};
