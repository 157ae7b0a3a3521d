import { createPrivateKey } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Redis } from 'ioredis';
import { buildJobDeps } from '../job/compose.ts';
import { defaultDataDir, defaultToolsDir, type Env } from '../config/env.ts';
import { hostRootsOf } from '../util/host-paths.ts';
import { describeError, RegreenError } from '../errors.ts';
import { withKeyFile } from './app-credentials.ts';
import { EVAL_TASK, evalTaskProcessor } from '../eval/queue-runner.ts';
import type { Forge } from '../forge/types.ts';
import { createGitHubClient, type GitHubClient } from '../forge/github/client.ts';
import { githubProcessor } from '../github/processor.ts';
import type { FailureResult } from '../github/run-failure.ts';
import { guardsFromEnv } from '../github/settings.ts';
import type { JobDeps, Progress } from '../job/deps.ts';
import type { Logger } from '../logger.ts';
import { bullJobQueue } from '../queue/bullmq.ts';
import type { JobSpec } from '../queue/jobs.ts';
import { memoryJobQueue } from '../queue/memory.ts';
import type { JobEvent, JobQueue, Processor } from '../queue/types.ts';
import {
  cappedProcessor,
  redisSpend,
  spendCap,
  storeSpend,
  type SpendCap,
} from '../store/spend.ts';
import type { JobStore } from '../store/types.ts';
import { sandboxKindOf } from '../workspace/sandbox/kinds.ts';
import { settingsOf } from '../config/env.ts';

/** The pieces every App-side process (server, worker) builds from the same environment. */

export const required = (value: string | undefined, name: string, who: string): string => {
  if (!value) throw new RegreenError('usage', `${who} needs ${name} (see app.yml and the README)`);
  return value;
};

export const dataDirOf = (env: Env): string => path.resolve(defaultDataDir(env));

export const storeFileOf = (env: Env): string =>
  path.resolve(settingsOf(env).storeFile ?? path.join(dataDirOf(env), 'regreen.db'));

export interface AppCredentials {
  readonly appId: string;
  readonly privateKey: string;
}

export const appCredentials = (env: Env, who: string): AppCredentials => {
  const appId = required(settingsOf(env).appId, 'APP_ID', who);
  const privateKey = required(
    settingsOf(withKeyFile(env)).privateKey,
    'PRIVATE_KEY',
    who,
  ).replaceAll('\\n', '\n');
  // A key that cannot sign fails here, at start, not on the first webhook.
  try {
    createPrivateKey(privateKey);
  } catch {
    throw new RegreenError(
      'usage',
      `PRIVATE_KEY is not a PEM private key (${who}): paste the .pem file GitHub gave for the App, newlines as \\n when it is one line`,
    );
  }
  if (!/^\d+$/.test(appId))
    throw new RegreenError(
      'usage',
      `APP_ID must be the App's numeric id, not ${JSON.stringify(appId)}: it is the "App ID" on the App's settings page (github.com/settings/apps/<name>)`,
    );
  return { appId, privateKey };
};

/** One REST client per installation, authenticated as the App (throttling, retry). */
export const installationClients = (
  env: Env,
  credentials: AppCredentials,
  logger: Logger,
): ((installationId: number) => GitHubClient) => {
  const clients = new Map<number, GitHubClient>();
  return (installationId) => {
    const known = clients.get(installationId);
    if (known) return known;
    const client = createGitHubClient({
      auth: { kind: 'app', ...credentials, installationId },
      hostRoots: hostRootsOf({
        dataDir: dataDirOf(env),
        toolsDir: defaultToolsDir(env),
        ...(settingsOf(env).home ? { home: settingsOf(env).home } : {}),
      }),
      ...(settingsOf(env).githubApiUrl ? { baseUrl: settingsOf(env).githubApiUrl } : {}),
      logger,
    });
    clients.set(installationId, client);
    return client;
  };
};

export const jobDepsFromEnv =
  (env: Env, logger: Logger) =>
  (forge: Forge, progress: Progress): JobDeps =>
    buildJobDeps({
      env,
      logger,
      forge,
      ...(settingsOf(env).model ? { model: settingsOf(env).model } : {}),
      budget: {},
      sandbox: sandboxKindOf(settingsOf(env).sandbox, (message) => logger.warn(message)),
      dataDir: dataDirOf(env),
      progress,
    });

/** The per-repository monthly cap (REGREEN_SPEND_CAP_USD): in Redis when workers share one, else in the store. */
export const spendCapFromEnv = (
  env: Env,
  counter: { redis?: Redis; store?: JobStore },
): SpendCap | undefined => {
  const capUsd = settingsOf(env).spendCapUsd;
  if (capUsd === undefined) return undefined;
  const source = counter.redis
    ? redisSpend(counter.redis)
    : counter.store
      ? storeSpend(counter.store)
      : undefined;
  if (!source) throw new RegreenError('internal', 'a spend cap needs Redis or the store');
  return spendCap({ counter: source, capUsd, now: () => Date.now() });
};

/** A processor module for `custom` jobs (`--processor FILE`): its default export, or `createProcessor(env)`. */
export const loadCustomProcessor = async (file: string, env: Env): Promise<Processor> => {
  const module = (await import(pathToFileURL(path.resolve(file)).href)) as {
    default?: Processor;
    createProcessor?: (env: Env) => Processor | Promise<Processor>;
  };
  const processor = module.createProcessor ? await module.createProcessor(env) : module.default;
  if (typeof processor !== 'function')
    throw new RegreenError('usage', `${file} exports neither a processor nor createProcessor(env)`);
  return processor;
};

/** The App's processor, with custom jobs going to `custom` when one is given. */
export const appProcessor = (options: {
  env: Env;
  logger: Logger;
  enqueue: (spec: JobSpec) => Promise<boolean>;
  spendCap?: SpendCap;
  custom?: Processor;
  onResult?: (key: string, result: FailureResult) => void;
}): Processor => {
  const { env, logger } = options;
  let github: Processor | undefined;
  let evalTasks: Processor | undefined;
  const processor: Processor = async (payload, job) => {
    if (payload.kind === 'custom') {
      if (payload.name === EVAL_TASK) {
        evalTasks ??= evalTaskProcessor(env, logger);
        return evalTasks(payload, job);
      }
      if (!options.custom) throw new Error(`no processor for custom job ${payload.name}`);
      return options.custom(payload, job);
    }
    github ??= githubProcessor({
      guards: guardsFromEnv(env),
      deps: jobDepsFromEnv(env, logger),
      logger,
      now: () => Date.now(),
      clientFor: installationClients(env, appCredentials(env, 'a worker'), logger),
      enqueue: options.enqueue,
      // A question frees the worker: the job's state goes back to the App's store.
      suspend: true,
      ...(options.onResult ? { onResult: options.onResult } : {}),
    });
    return github(payload, job);
  };
  return options.spendCap ? cappedProcessor(processor, options.spendCap) : processor;
};

/**
 * The queue named by the environment: BullMQ when REDIS_URL is set (Redis
 * down at start is an error, or the in-process queue when
 * REGREEN_QUEUE_FALLBACK=memory asks for it), else the in-process queue
 * running `processor` here.
 */
export const openQueue = async (options: {
  env: Env;
  logger: Logger;
  processor: Processor;
  onEvent: (event: JobEvent) => void;
}): Promise<JobQueue> => {
  const { env, logger } = options;
  const memory = (): JobQueue =>
    memoryJobQueue({
      concurrency: settingsOf(env).concurrency ?? 2,
      processor: options.processor,
      onEvent: options.onEvent,
    });
  const redisUrl = settingsOf(env).redisUrl;
  if (!redisUrl) return memory();
  try {
    return await bullJobQueue({ url: redisUrl, onEvent: options.onEvent });
  } catch (error) {
    if (settingsOf(env).queueFallback !== 'memory') throw error;
    logger.warn({ err: describeError(error) }, 'Redis is unreachable: jobs run in this process');
    return memory();
  }
};

/**
 * The job store's adapter, loaded only by the commands that keep one (its
 * native module is an optional dependency: `regreen fix` never needs it).
 */
export const loadJobStore = async (): Promise<(file: string) => JobStore> => {
  try {
    return (await import('../store/sqlite.ts')).openJobStore;
  } catch (error) {
    throw new RegreenError(
      'usage',
      `the job store needs better-sqlite3, an optional dependency that is not installed here (${(error as Error).message.split('\n')[0] ?? ''}): run npm install better-sqlite3 (it builds with a C++ compiler where no prebuilt binary fits)`,
    );
  }
};
