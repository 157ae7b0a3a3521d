import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createNodeMiddleware, Probot } from 'probot';
import { buildJobDeps } from '../cli/fix-command.ts';
import { defaultDataDir, type Env } from '../cli/environment.ts';
import { RegreenError } from '../errors.ts';
import { regreenApp, type AppOptions } from '../github/app.ts';
import { createGitHubClient, type GitHubClient } from '../github/client.ts';
import { guardsFromEnv } from '../github/settings.ts';
import type { Logger } from '../logger.ts';
import { createMemoryQueue, type MemoryQueue } from '../queue/memory.ts';
import type { SandboxKind } from '../workspace/sandbox.ts';

export interface Served {
  readonly url: string;
  readonly queue: MemoryQueue;
  close(): Promise<void>;
}

const required = (env: Env, name: string): string => {
  const value = env[name];
  if (!value)
    throw new RegreenError('usage', `regreen serve needs ${name} (see app.yml and the README)`);
  return value;
};

/**
 * `regreen serve`: the GitHub App. Probot's usual environment (APP_ID,
 * PRIVATE_KEY, WEBHOOK_SECRET, PORT; GITHUB_API_URL for GitHub Enterprise),
 * webhooks at /api/github/webhooks, health at /healthz.
 */
export const serve = async (
  env: Env,
  logger: Logger,
  options: { onResult?: AppOptions['onResult']; port?: number } = {},
): Promise<Served> => {
  const appId = required(env, 'APP_ID');
  const privateKey = required(env, 'PRIVATE_KEY').replaceAll('\\n', '\n');
  const probot = new Probot({
    appId,
    privateKey,
    secret: required(env, 'WEBHOOK_SECRET'),
    ...(env.GITHUB_API_URL ? { baseUrl: env.GITHUB_API_URL } : {}),
    log: logger.child({ name: 'probot' }),
  });
  const clients = new Map<number, GitHubClient>();
  const clientFor = (installationId: number): GitHubClient => {
    const known = clients.get(installationId);
    if (known) return known;
    const client = createGitHubClient({
      auth: { kind: 'app', appId, privateKey, installationId },
      ...(env.GITHUB_API_URL ? { baseUrl: env.GITHUB_API_URL } : {}),
      logger,
    });
    clients.set(installationId, client);
    return client;
  };
  const queue = createMemoryQueue({
    concurrency: Number(env.REGREEN_CONCURRENCY ?? 2),
    onError: (key, error) => logger.error({ err: error, key }, 'job failed'),
  });
  const dataDir = path.resolve(env.REGREEN_DATA_DIR ?? defaultDataDir(env));
  const middleware = await createNodeMiddleware(
    regreenApp({
      queue,
      guards: guardsFromEnv(env),
      logger,
      now: () => Date.now(),
      clientFor,
      ...(options.onResult ? { onResult: options.onResult } : {}),
      deps: (forge, progress) =>
        buildJobDeps({
          env,
          logger,
          forge,
          ...(env.REGREEN_MODEL ? { model: env.REGREEN_MODEL } : {}),
          budget: {},
          sandbox: (env.REGREEN_SANDBOX ?? 'asrt') as SandboxKind,
          dataDir,
          progress,
        }),
    }),
    { probot, webhooksPath: '/api/github/webhooks' },
  );
  const server: Server = createServer((req, res) => {
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, queued: queue.size, running: queue.running }));
      return;
    }
    void middleware(req, res, () => {
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? Number(env.PORT ?? 3000), env.HOST ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    queue,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
