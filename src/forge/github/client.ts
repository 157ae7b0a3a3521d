import { createAppAuth } from '@octokit/auth-app';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import Bottleneck from 'bottleneck';
import type { Logger } from '../../logger.ts';
import { neutralizeHostPaths, type HostRoot } from '../../util/host-paths.ts';

const GitHubOctokit = Octokit.plugin(throttling, retry);

/** The REST client regreen uses: @octokit/rest with the throttling and retry plugins. */
export type GitHubClient = InstanceType<typeof Octokit>;

export type GitHubAuth =
  | { readonly kind: 'token'; readonly token: string }
  | {
      readonly kind: 'app';
      readonly appId: number | string;
      readonly privateKey: string;
      readonly installationId: number;
    };

/**
 * How far apart one token's writes go. GitHub asks integrators to space
 * content-creating requests (its secondary rate limits); octokit's default is
 * one write a second and one notifying write (an issue, a PR, a comment)
 * every three.
 */
export interface WritePacing {
  readonly writeMs: number;
  readonly notificationMs: number;
}

/** The App: many jobs of one installation may write at once. */
export const APP_PACING: WritePacing = { writeMs: 1000, notificationMs: 3000 };
/** A workflow run makes a handful of writes with its own token: a PR, a comment or two. */
export const ACTION_PACING: WritePacing = { writeMs: 250, notificationMs: 1000 };

const limiters = new Map<string, { write: Bottleneck.Group; notifications: Bottleneck.Group }>();
/**
 * The throttle's limiters: one queue per token (an App's installation), never
 * one for the whole process, which is octokit's default key: the App's
 * installations would wait on each other's writes.
 */
export const throttleOf = (
  auth: GitHubAuth,
  pacing: WritePacing,
): { id: string; write: Bottleneck.Group; notifications: Bottleneck.Group } => {
  const name = `${pacing.writeMs}/${pacing.notificationMs}`;
  let groups = limiters.get(name);
  if (!groups) {
    groups = {
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: pacing.writeMs }),
      notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: pacing.notificationMs }),
    };
    limiters.set(name, groups);
  }
  return {
    id: auth.kind === 'app' ? `installation-${auth.installationId}` : 'token',
    ...groups,
  };
};

/** How many times a rate-limited request is retried before it fails. */
const RATE_LIMIT_RETRIES = 3;

const selfLogins = new WeakMap<GitHubClient, Promise<string | undefined>>();
const neutralTexts = new WeakMap<GitHubClient, (text: string) => string>();

/** A request's own fields, not text it sends. */
const PLUMBING = new Set(['method', 'url', 'baseUrl', 'headers', 'request', 'mediaType']);

const mapStrings = (value: unknown, map: (text: string) => string): unknown => {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]),
    );
  return value;
};

/** What the client does to every text it sends: the host's folders named neutrally (for text sent otherwise, a commit). */
export const neutralTextOf = (client: GitHubClient): ((text: string) => string) =>
  neutralTexts.get(client) ?? ((text) => text);

export const createGitHubClient = (options: {
  auth: GitHubAuth;
  baseUrl?: string;
  logger: Logger;
  /** Base of the retry plugin's backoff (tests make it short). */
  retryAfterBaseMs?: number;
  pacing?: WritePacing;
  /** This host's folders: no text sent through the client names them (see `neutralTextOf`). */
  hostRoots?: readonly HostRoot[];
}): GitHubClient => {
  const { logger } = options;
  const onLimit =
    (kind: string) =>
    (
      retryAfter: number,
      request: { method: string; url: string },
      _o: unknown,
      retryCount: number,
    ): boolean => {
      logger.warn({ retryAfter, url: request.url, retryCount }, `GitHub ${kind} rate limit`);
      return retryCount < RATE_LIMIT_RETRIES;
    };
  const client = new GitHubOctokit({
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    userAgent: 'regreen',
    ...(options.auth.kind === 'token'
      ? { auth: options.auth.token }
      : {
          authStrategy: createAppAuth,
          auth: {
            appId: options.auth.appId,
            privateKey: options.auth.privateKey,
            installationId: options.auth.installationId,
          },
        }),
    throttle: {
      ...throttleOf(options.auth, options.pacing ?? APP_PACING),
      onRateLimit: onLimit('primary'),
      onSecondaryRateLimit: onLimit('secondary'),
    },
    retry: { retryAfterBaseValue: options.retryAfterBaseMs ?? 1000 },
    log: {
      debug: () => undefined,
      info: () => undefined,
      warn: (message: string) => logger.warn(message),
      // Octokit's request log calls every answer but a 2xx an error ("GET … - 502 with id
      // UNKNOWN"), a retried one and an expected 404 too; a caller that fails reports it itself.
      error: (message: string) =>
        / - \d{3} with id \S+ in \d+ms$/.test(message)
          ? logger.debug(message)
          : logger.error(message),
    },
  });
  // The boundary: every string of every request's parameters (a PR's title and body, a comment, a
  // check run's output, a GraphQL query's variables) leaves with the host's folders named neutrally.
  const neutral = (text: string): string => neutralizeHostPaths(text, options.hostRoots ?? []);
  neutralTexts.set(client, neutral);
  client.hook.before('request', (request) => {
    for (const key of Object.keys(request)) {
      if (PLUMBING.has(key)) continue;
      (request as Record<string, unknown>)[key] = mapStrings(request[key], neutral);
    }
  });
  // An installation token cannot ask who it is (`GET /user` answers 403): it acts as its bot. So
  // is an App's, and so is every `ghs_` token (the workflow's GITHUB_TOKEN, an App token passed in).
  if (options.auth.kind === 'app' || options.auth.token.startsWith('ghs_'))
    selfLogins.set(client, Promise.resolve(undefined));
  return client;
};

/** A token the client authenticates with (an installation token for an App client). */
export const clientToken = async (client: GitHubClient): Promise<string> => {
  const auth = (await client.auth({ type: 'installation' })) as { token?: string };
  if (!auth.token) throw new Error('the GitHub client has no token');
  return auth.token;
};

/**
 * The login the client acts as, for a personal token (`GET /user`); an App
 * installation token or the workflow's token cannot ask, and acts as a bot.
 */
export const selfLogin = (client: GitHubClient): Promise<string | undefined> => {
  const known = selfLogins.get(client);
  if (known) return known;
  const asked = client.rest.users
    .getAuthenticated()
    .then((response) => response.data.login)
    .catch(() => undefined);
  selfLogins.set(client, asked);
  return asked;
};

const WRITE_ROLES = new Set(['admin', 'maintain', 'write']);

/** Whether a person has write access to the repository (may command regreen, answer its questions). */
export const hasWriteAccess = async (
  client: GitHubClient,
  repo: { owner: string; repo: string },
  login: string,
): Promise<boolean> => {
  const { data } = await client.rest.repos.getCollaboratorPermissionLevel({
    owner: repo.owner,
    repo: repo.repo,
    username: login,
  });
  return WRITE_ROLES.has(data.permission) || WRITE_ROLES.has(data.role_name);
};
