import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { homeOf, settingsOf, type Env } from '../../config/env.ts';
import { operatorNpmrcFiles, pipConfigFromFiles } from './dependency-caches.ts';

export type ReadText = (file: string) => string | undefined;

/** `host:port` of a registry URL (the scheme's port when none is written). */
export const registryEndpoint = (url: string): string | undefined => {
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
    return `${parsed.hostname}:${port}`;
  } catch {
    return undefined;
  }
};

/** `key=value` lines of an .npmrc: `registry` and (unless `scoped` is false) `@scope:registry`. */
const npmrcRegistries = (text: string, scoped = true): string[] =>
  text
    .split('\n')
    .map(
      (line) =>
        (scoped ? /^\s*(?:@[^:\s]+:)?registry\s*=\s*(\S+)/ : /^\s*registry\s*=\s*(\S+)/).exec(
          line,
        )?.[1],
    )
    .filter((value): value is string => value !== undefined);

/** `index-url` and `extra-index-url` of a pip.conf (values may continue on indented lines). */
const pipConfRegistries = (text: string): string[] => {
  const urls: string[] = [];
  let inIndexKey = false;
  for (const line of text.split('\n')) {
    const key = /^\s*(extra-index-url|index-url)\s*=\s*(\S.*|)$/.exec(line);
    if (key) {
      inIndexKey = true;
      urls.push(...(key[2] ?? '').split(/\s+/));
    } else if (inIndexKey && /^\s+\S/.test(line)) {
      urls.push(...line.trim().split(/\s+/));
    } else {
      inIndexKey = false;
    }
  }
  return urls.filter(Boolean);
};

/** The npm registries the operator set (environment, user and global `.npmrc`): none when npm's default is used. */
export const operatorNpmRegistries = (
  home: string,
  env: Env,
  readText: ReadText = readTextOrUndefined,
  options: { readonly scoped?: boolean } = {},
): string[] =>
  [
    settingsOf(env).npmConfigRegistry,
    settingsOf(env).npmRegistry,
    ...operatorNpmrcFiles(home, env).flatMap((file) =>
      npmrcRegistries(readText(file) ?? '', options.scoped),
    ),
  ].filter((value): value is string => Boolean(value));

/**
 * The package registries (`host:port`) named by the user's own npm and pip configuration
 * (never the repository's: a hostile repo must not widen the allow-list).
 * `effectiveUrls` are what the clients themselves report (`npm config get
 * registry` run outside any repository), which covers their built-in defaults
 * without this code naming a host.
 */
export const userRegistryHosts = (options: {
  home: string;
  env: Env;
  readText: ReadText;
  effectiveUrls?: readonly string[];
}): string[] => {
  const { home, env, readText } = options;
  const npmUrls = operatorNpmRegistries(home, env, readText);
  const pipUrls = [
    settingsOf(env).pipIndexUrl,
    ...(settingsOf(env).pipExtraIndexUrl ?? '').split(/\s+/),
    ...[
      settingsOf(env).pipConfigFile,
      '/etc/pip.conf',
      '/etc/xdg/pip/pip.conf',
      path.join(home, '.pip', 'pip.conf'),
      path.join(home, '.config', 'pip', 'pip.conf'),
    ]
      .filter((file): file is string => Boolean(file))
      .flatMap((file) => pipConfRegistries(readText(file) ?? '')),
  ].filter((value): value is string => Boolean(value));
  const hosts = [...npmUrls, ...pipUrls, ...(options.effectiveUrls ?? [])]
    .map(registryEndpoint)
    .filter((host): host is string => host !== undefined);
  return [...new Set(hosts)];
};

const readTextOrUndefined = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

const ASK_OPTIONS = { timeout: 15_000 } as const;

/** Answers already given, by home, environment and question: a client's configuration does not change under a job. */
const settled = new Map<string, string>();
const pending = new Map<string, Promise<string>>();
const questionKey = (home: string, env: Env, file: string, args: readonly string[]): string =>
  createHash('sha256')
    .update(JSON.stringify([home, file, args, Object.entries(env).sort()]))
    .digest('hex');

/** A client's answer, asked outside any repository (a repository's config must not widen it); once per process. */
export const ask = (home: string, env: Env, file: string, args: readonly string[]): string => {
  const key = questionKey(home, env, file, args);
  let answer = settled.get(key);
  if (answer === undefined) {
    try {
      answer = execFileSync(file, [...args], {
        ...ASK_OPTIONS,
        cwd: home,
        env,
        stdio: ['ignore', 'pipe', 'ignore'],
      }).toString('utf8');
    } catch {
      answer = '';
    }
    settled.set(key, answer);
  }
  return answer;
};

/** The same answer without blocking: questions asked this way run side by side. */
export const askAsync = (
  home: string,
  env: Env,
  file: string,
  args: readonly string[],
): Promise<string> => {
  const key = questionKey(home, env, file, args);
  const known = settled.get(key);
  if (known !== undefined) return Promise.resolve(known);
  let answer = pending.get(key);
  if (!answer) {
    answer = new Promise<string>((resolve) => {
      const child = execFile(
        file,
        [...args],
        { ...ASK_OPTIONS, cwd: home, env, encoding: 'utf8' },
        (error, stdout) => {
          const text = error ? '' : stdout;
          if (!settled.has(key)) settled.set(key, text);
          pending.delete(key);
          resolve(settled.get(key) ?? text);
        },
      );
      child.stdin?.end();
    });
    pending.set(key, answer);
  }
  return answer;
};

/** The Go module proxy and checksum database as `go env` reports them (the user's, else Go's defaults). */
export const goEndpoints = (goEnv: string): string[] => {
  const [proxy = '', sumdb = ''] = goEnv.split('\n').map((line) => line.trim());
  const proxies = proxy
    .split(/[,|]/)
    .map((p) => p.trim())
    .filter((p) => p && p !== 'direct' && p !== 'off');
  const sum =
    sumdb && sumdb !== 'off'
      ? [
          `https://${
            sumdb
              .split(/\s+/)
              .at(-1)
              ?.replace(/^https?:\/\//, '') ?? ''
          }`,
        ]
      : [];
  return [...proxies, ...sum];
};

/** The URLs `gem sources --list` prints under its heading. */
export const gemSourceUrls = (listing: string): string[] =>
  listing
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^https?:\/\//.test(line));

/**
 * The registry hosts of the user's own configuration and the clients'
 * defaults, for the setup step. The clients are asked side by side and
 * without blocking, so a job starts while they answer.
 */
export const registryHostsOf = async (env: Env): Promise<string[]> => {
  const home = homeOf(env);
  const settings = settingsOf(env);
  const pipList = pipConfigFromFiles(home, env);
  const [npmRegistry, goEnv, pipDefault, gemSources] = await Promise.all([
    askAsync(home, env, 'npm', ['config', 'get', 'registry']),
    askAsync(home, env, 'go', ['env', 'GOPROXY', 'GOSUMDB']),
    // pip's own default index and file host, as pip itself defines them: used unless the user set an index.
    askAsync(home, env, 'python3', [
      '-I',
      '-c',
      "from pip._internal.models.index import PyPI; print(PyPI.simple_url); print('https://' + PyPI.file_storage_domain + '/')",
    ]),
    // RubyGems' sources (the operator's gemrc, else its default): a Gemfile's `source` is reachable when it is one of them.
    askAsync(home, env, 'gem', ['sources', '--list']),
  ]);
  // The user's own index replaces pip's default (their extra indexes add to it).
  const pipConfigured =
    settings.pipIndexUrl !== undefined ||
    /^[^\S\n\r\u2028\u2029]*index-url\s*=/m.test(pipList.replace(/^[^=\n\r\u2028\u2029]*\./gm, ''));
  return userRegistryHosts({
    home,
    env,
    readText: readTextOrUndefined,
    effectiveUrls: [
      npmRegistry.trim(),
      ...(pipConfigured ? '' : pipDefault)
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
      ...goEndpoints(goEnv),
      ...gemSourceUrls(gemSources),
    ].filter(Boolean),
  });
};

/** The system's own bundle where Debian and Red Hat keep it (pip and curl trust it; Node does not). */
const SYSTEM_CA_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
];

/**
 * The certificates (PEM) the operator's clients trust besides Node's own: what the host adds when
 * it reaches a registry for the sandbox (`registry-forward.ts`), so a registry behind a company
 * CA that pip and curl trust is reached as they reach it. Only the operator's files, never the
 * repository's.
 */
export const operatorCaBundles = (env: Env, readText: ReadText = readTextOrUndefined): string[] => {
  const settings = settingsOf(env);
  const files = [
    ...[
      settings.sslCertFile,
      settings.requestsCaBundle,
      settings.curlCaBundle,
      settings.pipCert,
      settings.nodeExtraCaCerts,
    ].filter((file): file is string => typeof file === 'string' && path.isAbsolute(file)),
    ...SYSTEM_CA_BUNDLES,
  ];
  return [...new Set(files)]
    .map((file) => readText(file))
    .filter((text): text is string => text !== undefined && text.includes('BEGIN CERTIFICATE'));
};
