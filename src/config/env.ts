/**
 * The one reader of regreen's environment. Every variable regreen reads is
 * named here once, parsed and checked (a limit that is not a positive number
 * is a usage error naming the variable, never silently the default), and
 * handed on as typed settings. The raw environment itself still travels (as
 * `Env`) to what builds a child process's environment from an allow-list.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { RegreenError } from '../errors.ts';
import { nearestWord } from '../util/did-you-mean.ts';

/** A process environment, as given: what child processes' environments are built from. */
export interface Env {
  readonly [name: string]: string | undefined;
}

const text = z.string().min(1).optional().describe('a value');
const positive = z.coerce.number().positive().finite().optional().describe('a number above 0');
const whole = z.coerce.number().int().positive().optional().describe('a whole number above 0');
const count = z.coerce.number().int().min(0).optional().describe('a whole number');
const dollars = z.coerce.number().min(0).finite().optional().describe('a number of dollars');

/** Each setting: the variable it comes from and how it is read. */
const VARIABLES = {
  home: ['HOME', text],
  path: ['PATH', text],
  xdgCacheHome: ['XDG_CACHE_HOME', text],
  xdgConfigHome: ['XDG_CONFIG_HOME', text],
  xdgConfigDirs: ['XDG_CONFIG_DIRS', text],
  virtualEnv: ['VIRTUAL_ENV', text],
  runnerTemp: ['RUNNER_TEMP', text],
  runnerWorkspace: ['RUNNER_WORKSPACE', text],
  githubWorkspace: ['GITHUB_WORKSPACE', text],
  runnerToolCache: ['RUNNER_TOOL_CACHE', text],
  goPath: ['GOPATH', text],
  goModCache: ['GOMODCACHE', text],
  goProxy: ['GOPROXY', text],
  goFlags: ['GOFLAGS', text],
  dataDir: ['REGREEN_DATA_DIR', text],
  toolsDir: ['REGREEN_TOOLS_DIR', text],
  storeFile: ['REGREEN_STORE', text],
  logLevel: [
    'REGREEN_LOG_LEVEL',
    z
      .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
      .optional()
      .describe('one of trace, debug, info, warn, error, fatal, silent'),
  ],
  sandbox: ['REGREEN_SANDBOX', text],
  /** Variables whose values enter the sandbox with their URL credentials (comma-separated names). */
  sandboxCredentials: ['REGREEN_SANDBOX_CREDENTIALS', text],
  /** The host uid sandboxed commands run as when regreen runs as root. */
  sandboxUid: ['REGREEN_SANDBOX_UID', text],
  hostCaches: ['REGREEN_HOST_CACHES', z.enum(['on', 'off']).optional().describe('on or off')],
  setupSnapshot: [
    'REGREEN_SETUP_SNAPSHOT',
    z.enum(['cow', 'always', 'off']).optional().describe('cow, always or off'),
  ],
  npmStoreMb: ['REGREEN_NPM_STORE_MB', count],
  model: ['REGREEN_MODEL', text],
  workerFast: ['REGREEN_WORKER_FAST', text],
  workerGood: ['REGREEN_WORKER_GOOD', text],
  prices: ['REGREEN_PRICES', text],
  anthropicApiKey: ['ANTHROPIC_API_KEY', text],
  anthropicBaseUrl: ['ANTHROPIC_BASE_URL', text],
  openaiApiKey: ['OPENAI_API_KEY', text],
  openaiBaseUrl: ['OPENAI_BASE_URL', text],
  maxTurns: ['REGREEN_MAX_TURNS', whole],
  maxInputTokens: ['REGREEN_MAX_INPUT_TOKENS', whole],
  maxOutputTokens: ['REGREEN_MAX_OUTPUT_TOKENS', whole],
  maxCostUsd: ['REGREEN_MAX_COST_USD', positive],
  maxMinutes: ['REGREEN_MAX_MINUTES', positive],
  maxSetupSeconds: ['REGREEN_MAX_SETUP_SECONDS', positive],
  maxCommandSeconds: ['REGREEN_MAX_COMMAND_SECONDS', positive],
  maxDiffFiles: ['REGREEN_MAX_DIFF_FILES', whole],
  maxDiffLines: ['REGREEN_MAX_DIFF_LINES', whole],
  maxDiffKib: ['REGREEN_MAX_DIFF_KIB', whole],
  maxWorkers: ['REGREEN_MAX_WORKERS', whole],
  maxAskMinutes: ['REGREEN_MAX_ASK_MINUTES', positive],
  approveExec: [
    'REGREEN_APPROVE_EXEC',
    z.enum(['always', 'repo']).optional().describe('always or repo'),
  ],
  drafts: ['REGREEN_DRAFTS', z.enum(['on', 'off']).optional().describe('"on" or "off"')],
  maxProcesses: ['REGREEN_MAX_PROCESSES', whole],
  maxMemoryMb: ['REGREEN_MAX_MEMORY_MB', whole],
  maxDiskMb: ['REGREEN_MAX_DISK_MB', whole],
  jobVolume: ['REGREEN_JOB_VOLUME', z.enum(['auto', 'off']).optional().describe('"auto" or "off"')],
  spendCapUsd: ['REGREEN_SPEND_CAP_USD', dollars],
  maxAttempts: ['REGREEN_MAX_ATTEMPTS', count],
  maxOpenPrs: ['REGREEN_MAX_OPEN_PRS', count],
  maxPrsPerHour: ['REGREEN_MAX_PRS_PER_HOUR', count],
  allowRepos: ['REGREEN_ALLOW_REPOS', z.string().optional().describe('owner/repo globs')],
  concurrency: ['REGREEN_CONCURRENCY', whole],
  lockMs: ['REGREEN_LOCK_MS', whole],
  drainSeconds: ['REGREEN_DRAIN_SECONDS', count],
  questionSweepMs: ['REGREEN_QUESTION_SWEEP_MS', whole],
  queueFallback: ['REGREEN_QUEUE_FALLBACK', z.enum(['memory']).optional().describe('"memory"')],
  dashboardSecret: ['REGREEN_DASHBOARD_SECRET', text],
  metricsSecret: ['REGREEN_METRICS_SECRET', text],
  redisUrl: ['REDIS_URL', text],
  port: ['PORT', whole],
  host: ['HOST', text],
  appId: ['APP_ID', text],
  privateKey: ['PRIVATE_KEY', text],
  privateKeyPath: ['PRIVATE_KEY_PATH', text],
  webhookSecret: ['WEBHOOK_SECRET', text],
  githubApiUrl: ['GITHUB_API_URL', text],
  githubServerUrl: ['GITHUB_SERVER_URL', text],
  githubRepository: ['GITHUB_REPOSITORY', text],
  githubSha: ['GITHUB_SHA', text],
  githubHeadRef: ['GITHUB_HEAD_REF', text],
  githubRefName: ['GITHUB_REF_NAME', text],
  githubEventPath: ['GITHUB_EVENT_PATH', text],
  githubEventName: ['GITHUB_EVENT_NAME', text],
  githubOutput: ['GITHUB_OUTPUT', text],
  githubStepSummary: ['GITHUB_STEP_SUMMARY', text],
  githubToken: ['GITHUB_TOKEN', text],
  noColor: ['NO_COLOR', text],
  npmRegistry: ['NPM_CONFIG_REGISTRY', text],
  npmUserConfig: ['NPM_CONFIG_USERCONFIG', text],
  npmGlobalConfig: ['NPM_CONFIG_GLOBALCONFIG', text],
  pipIndexUrl: ['PIP_INDEX_URL', text],
  pipExtraIndexUrl: ['PIP_EXTRA_INDEX_URL', text],
  pipConfigFile: ['PIP_CONFIG_FILE', text],
  npmConfigRegistry: ['npm_config_registry', text],
  /** CA bundles the operator's clients trust: the host trusts them too when it reaches a registry for the sandbox. */
  sslCertFile: ['SSL_CERT_FILE', text],
  requestsCaBundle: ['REQUESTS_CA_BUNDLE', text],
  curlCaBundle: ['CURL_CA_BUNDLE', text],
  pipCert: ['PIP_CERT', text],
  nodeExtraCaCerts: ['NODE_EXTRA_CA_CERTS', text],
} as const satisfies Record<string, readonly [string, z.ZodType]>;

type Variables = typeof VARIABLES;

/** regreen's settings, as read from one environment. */
export type Settings = {
  readonly [K in keyof Variables]: z.infer<Variables[K][1]>;
};

const cache = new WeakMap<Env, Settings>();

/** Reads and checks every variable once per environment object; each bad value names its variable, all at once. */
export const settingsOf = (env: Env): Settings => {
  const known = cache.get(env);
  if (known) return known;
  const out: Record<string, unknown> = {};
  const bad: string[] = [];
  for (const [key, [name, schema]] of Object.entries(VARIABLES) as [
    string,
    readonly [string, z.ZodType],
  ][]) {
    const raw = env[name];
    const parsed = schema.safeParse(raw === '' ? undefined : raw);
    if (parsed.success) out[key] = parsed.data;
    else
      bad.push(
        `${name} must be ${schema.description ?? 'a valid value'}, not ${JSON.stringify(raw)}`,
      );
  }
  if (bad.length > 0) throw new RegreenError('usage', bad.join('; '));
  const settings = Object.freeze(out) as Settings;
  cache.set(env, settings);
  return settings;
};

/**
 * The `REGREEN_*` variables of an environment that name no setting (a slip
 * like `REGREEN_MAX_DISKMB` would leave a limit at its default, silently):
 * one warning each, with the setting it was likely meant to be.
 */
export const unknownSettings = (env: Env): string[] => {
  const known = Object.values(VARIABLES).map(([name]) => name as string);
  return Object.keys(env)
    .filter((name) => name.startsWith('REGREEN_') && !known.includes(name))
    .sort()
    .map((name) => {
      // Near by the part after the prefix, which every candidate shares.
      const tail = (full: string): string => full.slice('REGREEN_'.length);
      const near = nearestWord(tail(name), known.filter((k) => k.startsWith('REGREEN_')).map(tail));
      return `${name} is not a setting regreen reads, so it does nothing${near ? `: did you mean REGREEN_${near}?` : ''} (the README's configuration reference lists them)`;
    });
};

/** The user's home: `$HOME`, else the OS's idea of it. */
export const homeOf = (env: Env): string => settingsOf(env).home ?? os.homedir();

/** regreen's data dir: `$REGREEN_DATA_DIR`, else under the user's cache dir. */
export const defaultDataDir = (env: Env): string => {
  const settings = settingsOf(env);
  return (
    settings.dataDir ??
    path.join(settings.xdgCacheHome ?? path.join(homeOf(env), '.cache'), 'regreen')
  );
};

/** Variables with which an operator names a toolchain's root. */
const TOOLCHAIN_ROOT_VARIABLES = [
  'PYENV_ROOT',
  'NVM_DIR',
  'RUSTUP_HOME',
  'SDKMAN_DIR',
  'VOLTA_HOME',
  'ASDF_DIR',
  'ASDF_DATA_DIR',
  'JAVA_HOME',
  'GOROOT',
  'RUNNER_TOOL_CACHE',
] as const;

/** The toolchain roots the operator's environment names (absolute paths only). */
export const toolchainRootsOf = (env: Env): string[] =>
  TOOLCHAIN_ROOT_VARIABLES.map((name) => env[name]).filter(
    (dir): dir is string => dir !== undefined && path.isAbsolute(dir),
  );

/**
 * Where regreen keeps the package managers it provides (pinned pnpm and
 * Yarn): `$REGREEN_TOOLS_DIR`, else beside the data dir under the user's
 * cache dir. Never inside the data dir, which the sandbox never sees.
 */
export const defaultToolsDir = (env: Env): string => {
  const settings = settingsOf(env);
  return (
    settings.toolsDir ??
    path.join(settings.xdgCacheHome ?? path.join(homeOf(env), '.cache'), 'regreen-tools')
  );
};

/** An Action's input as the runner passes it: `INPUT_<NAME>`, the name upper-cased, trimmed. */
export const actionInputOf =
  (env: Env) =>
  (name: string): string =>
    (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
