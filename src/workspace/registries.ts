import path from 'node:path';

export type ReadText = (file: string) => string | undefined;

/** `host:port` of a registry URL (the scheme's port when none is written). */
const endpointOf = (url: string): string | undefined => {
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
    return `${parsed.hostname}:${port}`;
  } catch {
    return undefined;
  }
};

/** `key=value` lines of an .npmrc: `registry` and `@scope:registry`. */
const npmrcRegistries = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => /^\s*(?:@[^:\s]+:)?registry\s*=\s*(\S+)/.exec(line)?.[1])
    .filter((value): value is string => value !== undefined);

/** `index-url` and `extra-index-url` of a pip.conf (values may continue on indented lines). */
const pipConfRegistries = (text: string): string[] => {
  const urls: string[] = [];
  let inIndexKey = false;
  for (const line of text.split('\n')) {
    const key = /^\s*(extra-index-url|index-url)\s*=\s*(.*)$/.exec(line);
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

/**
 * The package registries (`host:port`) named by the user's own npm and pip configuration
 * (never the repository's: a hostile repo must not widen the allow-list).
 * `effectiveUrls` are what the clients themselves report (`npm config get
 * registry` run outside any repository), which covers their built-in defaults
 * without this code naming a host.
 */
export const userRegistryHosts = (options: {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  readText: ReadText;
  effectiveUrls?: readonly string[];
}): string[] => {
  const { home, env, readText } = options;
  const npmUrls = [
    env.npm_config_registry,
    env.NPM_CONFIG_REGISTRY,
    ...npmrcRegistries(readText(env.NPM_CONFIG_USERCONFIG ?? path.join(home, '.npmrc')) ?? ''),
    ...npmrcRegistries(readText(env.NPM_CONFIG_GLOBALCONFIG ?? '/etc/npmrc') ?? ''),
  ].filter((value): value is string => Boolean(value));
  const pipUrls = [
    env.PIP_INDEX_URL,
    ...(env.PIP_EXTRA_INDEX_URL ?? '').split(/\s+/),
    ...[
      env.PIP_CONFIG_FILE,
      '/etc/pip.conf',
      '/etc/xdg/pip/pip.conf',
      path.join(home, '.pip', 'pip.conf'),
      path.join(home, '.config', 'pip', 'pip.conf'),
    ]
      .filter((file): file is string => Boolean(file))
      .flatMap((file) => pipConfRegistries(readText(file) ?? '')),
  ].filter((value): value is string => Boolean(value));
  const hosts = [...npmUrls, ...pipUrls, ...(options.effectiveUrls ?? [])]
    .map(endpointOf)
    .filter((host): host is string => host !== undefined);
  return [...new Set(hosts)];
};
