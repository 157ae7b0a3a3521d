import type { Command } from 'commander';
import { SUMMARIES } from '../cli/summaries.ts';
import { untilStopped, type CliContext } from '../cli/context.ts';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { packageRoot } from '../util/package-root.ts';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { Probot } from 'probot';
import { webhookGate } from '../github/webhook-gate.ts';
import type { Env } from '../config/env.ts';
import { describeError, RegreenError } from '../errors.ts';
import { readEnvFile, registerApp } from './app-setup.ts';
import { regreenApp } from '../github/handlers.ts';
import type { FailureResult } from '../github/run-failure.ts';
import { guardsFromEnv } from '../github/settings.ts';
import type { Logger } from '../logger.ts';
import { createMetrics } from '../observe/metrics.ts';
import { connectRedis } from '../queue/bullmq.ts';
import { jobsPageHandler } from '../observe/jobs-page.ts';
import type { JobEvent, JobQueue } from '../queue/types.ts';
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
  close(): Promise<void>;
}

/**
 * `regreen serve`: the GitHub App. Probot's usual environment (APP_ID,
 * PRIVATE_KEY, WEBHOOK_SECRET, PORT; GITHUB_API_URL for GitHub Enterprise),
 * webhooks at /api/github/webhooks, health at /healthz, Prometheus metrics at
 * /metrics, the jobs page at /jobs (REGREEN_DASHBOARD_SECRET). Jobs run in
 * this process, or — with REDIS_URL — in `regreen worker` processes.
 */
export const serve = async (
  env: Env,
  logger: Logger,
  options: { onResult?: (key: string, result: FailureResult) => void; port?: number } = {},
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
    }),
  });
  late.queue = jobQueue;
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
    if (req.url === '/metrics') {
      void metrics.text().then(
        (text) => {
          res.writeHead(200, { 'content-type': metrics.contentType });
          res.end(text);
        },
        (error: unknown) => {
          res.writeHead(500);
          res.end(describeError(error));
        },
      );
      return;
    }
    if (jobsPage(req, res)) return;
    if ((req.url ?? '').split('?')[0] === '/api/github/webhooks') return webhooks(req, res);
    res.writeHead(404);
    res.end();
  });
  // Slow clients: headers within 10 s, a whole request within 30 s.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.maxConnections = 512;
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? settings.port ?? 3000, settings.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    queue: jobQueue,
    store,
    close: async () => {
      clearInterval(sweeper);
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await jobQueue.close();
      redis?.disconnect();
      store.close();
    },
  };
};

/** `regreen serve`. */
export const registerServe = (program: Command, { env, logger, setExit }: CliContext): void => {
  program
    .command('serve')
    .description(SUMMARIES.serve)
    .option('--port <n>', 'port to listen on (default: $PORT, else 3000)')
    .option(
      '--env-file <file>',
      'where the App credentials are read from, or written by the first-run registration',
      '.env',
    )
    .option(
      '--public-url <url>',
      'where GitHub reaches this server (first run: webhooks, redirect)',
    )
    .option('--org <name>', 'first run: register the App under this organization')
    .action(async (opts: { port?: string; envFile: string; publicUrl?: string; org?: string }) => {
      const port = opts.port !== undefined ? Number(opts.port) : (settingsOf(env).port ?? 3000);
      const withCredentials = await credentialsFor(env, logger, { ...opts, port });
      const served = await serve(withCredentials, logger, { port });
      process.stderr.write(`[regreen] App listening on ${served.url}/api/github/webhooks\n`);
      await untilStopped();
      // In-process jobs finish first; with Redis they belong to the workers.
      if (served.queue.kind === 'memory') await served.queue.idle();
      await served.close();
      setExit(0);
    });
};

/** What a `.env` may give `serve`. */
const APP_CREDENTIALS = ['APP_ID', 'PRIVATE_KEY', 'WEBHOOK_SECRET'] as const;

/**
 * The environment `serve` runs with: the App's credentials from the
 * environment, else from the `.env` file, else registered now through
 * GitHub's manifest flow (which writes that file).
 */
const credentialsFor = async (
  env: Env,
  logger: Logger,
  options: { port: number; envFile: string; publicUrl?: string; org?: string },
): Promise<Env> => {
  const settings = settingsOf(env);
  if (settings.appId && settings.privateKey && settings.webhookSecret) return env;
  const file = path.resolve(options.envFile);
  if (existsSync(file)) {
    // Only the App's credentials, the keys the first run writes: a .env cannot change any other setting
    // (the sandbox, the API server) behind the operator's environment.
    const saved = readEnvFile(file);
    const given = {
      APP_ID: settings.appId,
      PRIVATE_KEY: settings.privateKey,
      WEBHOOK_SECRET: settings.webhookSecret,
    };
    return {
      ...env,
      ...Object.fromEntries(
        APP_CREDENTIALS.filter((key) => saved[key] !== undefined && !given[key]).map((key) => [
          key,
          saved[key],
        ]),
      ),
    };
  }
  const registration = await registerApp({
    env,
    logger,
    port: options.port,
    ...(settings.host ? { host: settings.host } : {}),
    appYml: readFileSync(appManifestFile(), 'utf8'),
    envFile: file,
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.org ? { org: options.org } : {}),
    onListening: (url) =>
      process.stderr.write(
        `[regreen] no App credentials: open ${url} to register regreen on GitHub\n`,
      ),
  });
  process.stderr.write(
    `[regreen] registered App ${registration.appId}; credentials written to ${file}${registration.htmlUrl ? `; install it: ${registration.htmlUrl}/installations/new` : ''}\n`,
  );
  return {
    ...env,
    APP_ID: registration.appId,
    PRIVATE_KEY: registration.privateKey,
    WEBHOOK_SECRET: registration.webhookSecret,
  };
};

/** app.yml at the package's root, from the sources (`src/entrypoints`) or the build (`dist/src/entrypoints`). */
/** The App's manifest, at the root of regreen's package (a checkout or the installed tarball). */
const appManifestFile = (): string => {
  const file = path.join(packageRoot(), 'app.yml');
  if (!existsSync(file))
    throw new RegreenError('internal', `app.yml is missing from the package (looked in ${file})`);
  return file;
};
