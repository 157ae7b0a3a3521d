import { secretPieces } from './registry-secrets.ts';

/**
 * The operator's registries as the sandbox knows them: by an alias, never by any form of the URL
 * the operator configured. A registry URL may carry its credential anywhere — the userinfo, a path
 * segment (`/<TOKEN>/simple/`), a query parameter, the host name (`<TOKEN>.pkgs.example`) — and no
 * reading of its shape tells a token from a name. So none of it enters: each operator URL becomes
 * `http://127.0.0.1:3128/regreen-registry/<n>/~/~/` (one `~` per segment of its path, the last
 * one too), and the
 * setup proxy on the host (`registry-forward.ts`) maps a request for that alias back to the
 * operator's URL, adds the credential there, and rewrites the absolute links of what it serves
 * back to the alias.
 *
 * A path below the alias keeps its own segments; a `~` at the place of one of the operator's path
 * segments stands for it, so a relative link that climbs (`../../packages/x.whl`) still resolves
 * to the same registry. The alias's host is the proxy bridge's own loopback port in the sandbox:
 * a client that goes through `HTTP_PROXY` and one that connects directly (Go does not proxy
 * loopback) both reach the proxy, and pip counts loopback as a secure origin.
 */

/** The loopback port the proxy bridge listens on inside the sandbox. */
export const PROXY_PORT = 3128;
export const ALIAS_HOST = `127.0.0.1:${PROXY_PORT}`;
export const ALIAS_ORIGIN = `http://${ALIAS_HOST}`;
export const ALIAS_PREFIX = '/regreen-registry/';
/** Stands for one of the operator's path segments. */
const PLACEHOLDER = '~';

export interface RegistryAlias {
  /** Its number in the alias path. */
  readonly id: number;
  /** The operator's URL as configured (credential and all): known to the host only. */
  readonly upstream: string;
  /** The URL the sandbox is given instead. */
  readonly alias: string;
  /**
   * The `Authorization` the host sends when the URL carries no userinfo: the operator's npmrc
   * token for it (`//host/path/:_authToken`, `:_auth`), host-side only.
   */
  readonly authorization?: string;
}

/** The path's segments: `/a/b/` → `['a', 'b', '']`. */
const segmentsOf = (pathname: string): string[] => pathname.replace(/^\//, '').split('/');

/** The operator's own segments of a registry: every one of its path (a trailing `/` makes none). */
export const baseSegments = (upstream: URL): string[] => {
  const segments = segmentsOf(upstream.pathname);
  return segments.at(-1) === '' ? segments.slice(0, -1) : segments;
};

/** An upstream path as the alias path shows it: the leading segments it shares with the registry's own replaced. */
export const aliasPathOf = (registry: RegistryAlias, upstreamPath: string): string => {
  const base = baseSegments(new URL(registry.upstream));
  const segments = segmentsOf(upstreamPath);
  let shared = 0;
  while (shared < base.length && shared < segments.length && segments[shared] === base[shared])
    shared += 1;
  const shown = segments.map((segment, index) => (index < shared ? PLACEHOLDER : segment));
  return `${ALIAS_PREFIX}${registry.id}/${shown.join('/')}`;
};

/** The URL the sandbox is given for an operator URL. */
const aliasUrlOf = (id: number, upstream: URL): string =>
  `${ALIAS_ORIGIN}${aliasPathOf({ id, upstream: upstream.href, alias: '' }, upstream.pathname)}`;

/** The upstream path of what follows `/regreen-registry/<n>` in a request: each `~` at an operator segment's place put back. */
export const upstreamPathOf = (registry: RegistryAlias, rest: string): string => {
  const base = baseSegments(new URL(registry.upstream));
  const segments = segmentsOf(rest);
  const real = segments.map((segment, index) =>
    index < base.length && segment === PLACEHOLDER ? (base[index] ?? segment) : segment,
  );
  return `/${real.join('/')}`;
};

/**
 * The segments a request must begin with: the registry's own, but for a Python index's final
 * `simple` (`+simple` on devpi), which PEP 503 places beside the files its pages link to
 * (`<root>/simple/x/` links `../../packages/x.whl`).
 */
export const subtreeOf = (base: readonly string[]): readonly string[] =>
  ['simple', '+simple'].includes((base.at(-1) ?? '').toLowerCase()) ? base.slice(0, -1) : base;

/** A segment the upstream may read as a climb or a separator once it decodes it (`%2e%2e`, `..%2f..`, `\`). */
const climbsWhenDecoded = (segment: string): boolean => {
  if (segment.includes('\\')) return true;
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return true;
  }
  if ((text === '.' || text === '..') && text !== segment) return true;
  return text !== segment && text.split(/[/\\]/).some((part) => part === '.' || part === '..');
};

/**
 * The upstream path of an alias request, confined to the registry's own subtree: its `~`s put
 * back, `.` and `..` resolved, and the result beginning with every segment of the registry's
 * path; `undefined` (refused before the upstream is contacted) when it does not, or when a
 * segment is an encoded climb, holds a backslash or does not decode. The host adds the
 * credential to what it sends, so what it sends stays where the operator pointed it.
 */
export const confinedUpstreamPath = (registry: RegistryAlias, rest: string): string | undefined => {
  const base = baseSegments(new URL(registry.upstream));
  const segments = segmentsOf(upstreamPathOf(registry, rest));
  if (segments.some(climbsWhenDecoded)) return undefined;
  const resolved: string[] = [];
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..' && resolved.pop() === undefined) return undefined;
      if (last) resolved.push('');
    } else resolved.push(segment);
  }
  const inside = subtreeOf(base).every((segment, index) => resolved[index] === segment);
  return inside ? `/${resolved.join('/')}` : undefined;
};

/** The registry an alias request names, and the rest of its path (`undefined`: no alias of this sandbox). */
export const aliasTarget = (
  registries: readonly RegistryAlias[],
  requestPath: string,
): { registry: RegistryAlias; rest: string } | undefined => {
  if (!requestPath.startsWith(ALIAS_PREFIX)) return undefined;
  const after = requestPath.slice(ALIAS_PREFIX.length);
  const slash = after.indexOf('/');
  const number = slash < 0 ? after : after.slice(0, slash);
  if (!/^\d{1,6}$/.test(number)) return undefined;
  const registry = registries.find((entry) => entry.id === Number(number));
  return registry ? { registry, rest: slash < 0 ? '/' : after.slice(slash) } : undefined;
};

export interface RegistryAliases {
  /** The alias of an http(s) URL (the same for the same URL); anything else as it is. */
  readonly aliasOf: (url: string) => string;
  /** Every URL given an alias so far. */
  readonly list: () => readonly RegistryAlias[];
}

/** A fresh set of aliases: numbered in the order the operator's URLs are met. */
export const registryAliases = (): RegistryAliases => {
  const entries: RegistryAlias[] = [];
  return {
    aliasOf: (url) => {
      // Already an alias (a value made of one): as it is.
      if (url.startsWith(`${ALIAS_ORIGIN}${ALIAS_PREFIX}`)) return url;
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        // Not a URL: a word (`direct`, `off`) or a path as it is; what looks like a URL but does
        // not parse as one is left out (a client may read it as one, credential and all).
        return url.includes('//') || url.includes('@') ? '' : url;
      }
      if (parsed.protocol === 'file:') return url;
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return '';
      const known = entries.find((entry) => entry.upstream === parsed.href);
      if (known) return known.alias;
      const id = entries.length;
      const entry = { id, upstream: parsed.href, alias: aliasUrlOf(id, parsed) };
      entries.push(entry);
      return entry.alias;
    },
    list: () => entries,
  };
};

/** Each http(s) URL among a value's words (split at whitespace, `,` and `|`) given its alias. */
export const aliasWords = (value: string, aliasOf: (url: string) => string): string =>
  value.replace(/[^\s,|]+/g, (word) => {
    // uv's `UV_INDEX` names an index `name=url`.
    const eq = word.indexOf('=');
    const named = eq > 0 && !word.slice(0, eq).includes(':') ? word.slice(0, eq + 1) : '';
    return `${named}${aliasOf(word.slice(named.length))}`;
  });

/** The secret pieces of the registries' URLs (`registry-secrets.ts`), lower-cased. */
const secretWordsOf = (registries: readonly RegistryAlias[]): string[] =>
  registries.flatMap((entry) =>
    secretPieces(entry.upstream, entry.authorization).map((piece) => piece.toLowerCase()),
  );

/** The installers' variables that name registries (a list where the client takes one). */
const REGISTRY_VARIABLES = [
  'PIP_INDEX_URL',
  'PIP_EXTRA_INDEX_URL',
  'PIP_FIND_LINKS',
  'UV_INDEX_URL',
  'UV_EXTRA_INDEX_URL',
  'UV_DEFAULT_INDEX',
  'UV_INDEX',
  'UV_FIND_LINKS',
  'npm_config_registry',
  'NPM_CONFIG_REGISTRY',
  'YARN_NPM_REGISTRY_SERVER',
  'GOPROXY',
];

/** Go's lists of module path patterns (comma-separated globs): they may name the operator's hosts. */
const GO_PATTERN_VARIABLES = ['GONOSUMDB', 'GOPRIVATE', 'GONOPROXY', 'GOINSECURE'];

/** `GOSUMDB`: `off`, `name[+key]`, or `name[+key] url` — the URL given its alias, the key as it is. */
const aliasedSumdb = (value: string, aliasOf: (url: string) => string): string => {
  const words = value.trim().split(/\s+/);
  if (words.length > 2) return '';
  const [name = '', url] = words;
  if (url === undefined) return name;
  const alias = aliasOf(url);
  return alias && alias !== url ? `${name} ${alias}` : '';
};

/** Variables naming hosts trusted over plain HTTP: the alias is loopback, which every client trusts. */
const TRUSTED_HOST_VARIABLES = ['PIP_TRUSTED_HOST', 'UV_INSECURE_HOST'];

/**
 * The operator's registry variables with each URL given its alias, the trusted hosts without the
 * registries' own, and yarn 2+ (which reads no `.npmrc`) told the operator's npm registry and that
 * the alias is plain HTTP on purpose.
 */
export const aliasedRegistryVariables = (
  env: Readonly<Record<string, string | undefined>>,
  aliases: RegistryAliases,
  npmRegistry: string | undefined,
): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const name of REGISTRY_VARIABLES) {
    const value = env[name];
    if (value !== undefined) out[name] = aliasWords(value, aliases.aliasOf);
  }
  if (env.GOSUMDB !== undefined) out.GOSUMDB = aliasedSumdb(env.GOSUMDB, aliases.aliasOf);
  if (out.YARN_NPM_REGISTRY_SERVER === undefined && npmRegistry !== undefined) {
    const alias = aliases.aliasOf(npmRegistry);
    if (alias !== npmRegistry) out.YARN_NPM_REGISTRY_SERVER = alias;
  }
  const hosts = new Set(aliases.list().map((entry) => new URL(entry.upstream).host));
  const hostnames = new Set(
    aliases.list().map((entry) => new URL(entry.upstream).hostname.toLowerCase()),
  );
  for (const name of TRUSTED_HOST_VARIABLES) {
    const value = env[name];
    if (value === undefined) continue;
    // Laid over the operator's value: emptied, not left out.
    out[name] = value
      .split(/\s+/)
      .filter((word) => word && !hosts.has(word) && !hostnames.has(word))
      .join(' ');
  }
  if (aliases.list().length > 0) out.YARN_UNSAFE_HTTP_WHITELIST = ALIAS_HOST.split(':')[0] ?? '';
  // What names a registry's host or holds a secret piece of its URL is left out (laid over as
  // empty): a pattern of Go's as a whole, any other value whole — never passed on as it is.
  const pieces = secretWordsOf(aliases.list());
  const secret = (text: string): boolean => {
    const lower = text.toLowerCase();
    return pieces.some((piece) => lower.includes(piece));
  };
  const names = [...hostnames].filter((host) => !/^[\d.]+$/.test(host) && !host.startsWith('['));
  for (const name of GO_PATTERN_VARIABLES) {
    const value = env[name];
    if (value === undefined) continue;
    out[name] = value
      .split(',')
      .filter(
        (pattern) =>
          pattern.trim() &&
          !secret(pattern) &&
          !names.some((host) => pattern.toLowerCase().includes(host)),
      )
      .join(',');
  }
  for (const [name, value] of Object.entries(out)) if (secret(value)) out[name] = '';
  return out;
};
