import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gradleRepositoryFiles } from './gradle.ts';
import { withoutUserinfo } from '../../util/text.ts';
import { aliasWords } from '../sandbox/registry-aliases.ts';
import { settingsOf, type Env } from '../../config/env.ts';

/**
 * The operator's dependency caches, offered to the sandbox read-only as local
 * registries: a build resolves from what this machine already downloaded
 * before it asks the network (and, where the network is closed, resolves at
 * all). Each is read through the client's own mechanism for a local
 * repository, never by sharing the cache itself: the sandbox's home stays
 * its own and nothing it writes reaches the host.
 *
 * - Go: the module cache's `cache/download` is a module proxy as it is
 *   (`GOPROXY=file://…`), tried before the user's own proxy list.
 * - Maven: the local repository has the remote layout; the sandbox's own
 *   `settings.xml` names it as a `file://` repository for dependencies and
 *   plugins, before the POM's and Maven Central. Offline (`mvn -o`), Maven
 *   refuses every remote repository, a `file://` one too, and the sandbox's
 *   own local repository starts empty: the sandbox's `~/.mavenrc` (which
 *   `mvn` sources) lets the `file` protocol through offline.
 *
 * Only the caches' folders are exposed: not the operator's `settings.xml`
 * (it may hold credentials), not `~/go` or `~/.m2` themselves; and none
 * when the operator sets `REGREEN_HOST_CACHES=off`.
 */
export interface DependencyCaches {
  /** Host folders the sandbox reads. */
  readonly readable: readonly string[];
  /** Variables every sandboxed command gets. */
  readonly env: Readonly<Record<string, string>>;
  /** Files written into the sandbox's private home (relative path → text). */
  readonly homeFiles: Readonly<Record<string, string>>;
}

/** `go env GOPROXY` as the client reports it (its default when the user set none). */
export type GoProxyOf = () => string;

/** `pip config list` as pip reports it (`section.key='value'` lines), asked outside any repository. */
export type PipConfigOf = () => string;

/** An INI file as pip's configparser reads it: `[section]`, `key = value` or `key: value`, indented continuation lines. */
const iniEntries = (text: string): [string, string, string][] => {
  const entries: [string, string, string][] = [];
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*([#;]|$)/.test(raw)) continue;
    const last = entries.at(-1);
    if (/^\s/.test(raw) && last) {
      last[2] = `${last[2]} ${raw.trim()}`.trim();
      continue;
    }
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header?.[1]) {
      section = header[1].trim();
      continue;
    }
    const pair = /^([^=:]+)[=:]\s*(\S.*|)$/.exec(raw);
    if (pair?.[1] && section) entries.push([section, pair[1].trim(), (pair[2] ?? '').trim()]);
  }
  return entries;
};

/**
 * What `pip config list` reports from pip's files, read without starting
 * Python (a quarter of a second a job would wait): the global files
 * (`$XDG_CONFIG_DIRS/pip/pip.conf`, `/etc/pip.conf`), the user's
 * (`~/.pip/pip.conf`, `$XDG_CONFIG_HOME/pip/pip.conf`), the site's
 * (`$VIRTUAL_ENV/pip.conf`) and `PIP_CONFIG_FILE`, in pip's order (later
 * wins; `PIP_CONFIG_FILE=/dev/null` loads none).
 */
export const pipConfigFromFiles = (home: string, env: Env): string => {
  const settings = settingsOf(env);
  if (settings.pipConfigFile === os.devNull) return '';
  const configHome = settings.xdgConfigHome ?? path.join(home, '.config');
  const files = [
    ...(settings.xdgConfigDirs ?? '/etc/xdg')
      .split(':')
      .filter((dir) => path.isAbsolute(dir))
      .map((dir) => path.join(dir, 'pip', 'pip.conf')),
    '/etc/pip.conf',
    path.join(home, '.pip', 'pip.conf'),
    path.join(configHome, 'pip', 'pip.conf'),
    ...(settings.virtualEnv ? [path.join(settings.virtualEnv, 'pip.conf')] : []),
    ...(settings.pipConfigFile ? [settings.pipConfigFile] : []),
  ];
  const lines: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const [section, key, value] of iniEntries(text))
      lines.push(`${section}.${key}='${value}'`);
  }
  return lines.join('\n');
};

// `cert`: the CA bundle pip trusts (an egress proxy's); never `client-cert`, which is a credential.
const PIP_KEYS = ['index-url', 'extra-index-url', 'find-links', 'trusted-host', 'cert'] as const;

/**
 * The user's pip index settings as a pip.conf for the sandbox's home: the
 * sandbox cannot read the user's own (it is in their home, beside other
 * settings), and pip inside must look where pip outside looks. Given
 * `aliasOf` (the sandbox's registry aliases), each URL is named by its alias
 * and a trusted host that is one of theirs goes (the alias is loopback);
 * without it, a URL that carries userinfo stays out.
 */
export const pipConfFrom = (
  listing: string,
  aliasOf?: (url: string) => string,
): string | undefined => {
  const values = new Map<string, string[]>();
  const trusted: string[] = [];
  for (const line of listing.split('\n')) {
    const m = /^(?:global|install|user|site)\.([\w-]+)='(.*)'$/.exec(line.trim());
    const key = m?.[1];
    if (!m || !key || !(PIP_KEYS as readonly string[]).includes(key)) continue;
    const words = (m[2] ?? '')
      .split(/\s+/)
      .filter((word) => word && (aliasOf || !/^[a-z+]+:\/\/[^/@\s]*@/i.test(word)))
      .map((word) => (aliasOf && key !== 'trusted-host' && key !== 'cert' ? aliasOf(word) : word));
    if (key === 'trusted-host') trusted.push(...words);
    else if (words.length > 0) values.set(key, [...(values.get(key) ?? []), ...words]);
  }
  const aliased = aliasOf ? registryHostsNamed(listing) : new Set<string>();
  const keptTrusted = trusted.filter((host) => !aliased.has(host));
  if (keptTrusted.length > 0) values.set('trusted-host', keptTrusted);
  if (values.size === 0) return undefined;
  return [
    aliasOf
      ? '# written by regreen: your pip index settings, each index by its alias (the setup proxy adds your credentials)'
      : '# written by regreen: your pip index settings, without credentials',
    '[global]',
    ...[...values].map(([key, words]) => `${key} = ${[...new Set(words)].join(' ')}`),
    '',
  ].join('\n');
};

/** The host names and `host:port`s of a listing's index URLs. */
const registryHostsNamed = (listing: string): Set<string> => {
  const hosts = new Set<string>();
  for (const word of listing.split(/[\s']+/)) {
    try {
      const url = new URL(word);
      if (url.protocol === 'http:' || url.protocol === 'https:') {
        hosts.add(url.host);
        hosts.add(url.hostname);
      }
    } catch {
      // not a URL
    }
  }
  return hosts;
};

/** The operator's npm configuration files: user, then global under Node's prefix and in /etc. */
export const operatorNpmrcFiles = (home: string, env: Env): string[] => {
  const settings = settingsOf(env);
  const prefix = path.dirname(path.dirname(process.execPath));
  return [
    settings.npmUserConfig ?? path.join(home, '.npmrc'),
    settings.npmGlobalConfig ?? path.join(prefix, 'etc', 'npmrc'),
    '/etc/npmrc',
  ];
};

/** The operator's npm configuration files as they stand; the sandbox gets only `npmrcFrom` of them. */
export const npmConfigFromFiles = (home: string, env: Env): string[] => {
  const files = operatorNpmrcFiles(home, env);
  return files.flatMap((file) => {
    try {
      return [readFileSync(file, 'utf8')];
    } catch {
      return [];
    }
  });
};

/**
 * A value as npm's ini parser reads it: trimmed; quoted (`"…"` or `'…'`) its quotes removed (a
 * double-quoted one read as JSON); else cut at an unescaped `;` or `#`, `\;` `\#` `\\` unescaped.
 */
export const iniValue = (written: string): string => {
  const value = written.trim();
  const quote = value.charAt(0);
  if (value.length >= 2 && (quote === '"' || quote === "'") && value.endsWith(quote)) {
    const inner = quote === "'" ? value.slice(1, -1) : value;
    try {
      const parsed: unknown = JSON.parse(inner);
      return typeof parsed === 'string' ? parsed : inner;
    } catch {
      return inner;
    }
  }
  let out = '';
  for (let at = 0; at < value.length; at += 1) {
    const char = value.charAt(at);
    if (char === ';' || char === '#') break;
    if (char !== '\\') out += char;
    else if (at + 1 >= value.length) out += char;
    else {
      const next = value.charAt(at + 1);
      out += ';#\\'.includes(next) ? next : `\\${next}`;
      at += 1;
    }
  }
  return out.trim();
};

/** The npm settings a build needs of the operator's: registries and the TLS trust to reach them. */
const NPM_KEYS = /^(registry|@[^:\s]+:registry|cafile|ca|ca\[\]|strict-ssl)$/;

/**
 * The operator's npm registries and TLS settings as the sandbox's `~/.npmrc` (its npm reads no
 * global file: `commandEnv`), without credentials: only the keys above, each registry by its
 * alias given `aliasOf` (else without its userinfo), and never a `//host/:_authToken` line. The
 * first file that sets a key wins, as npm's order has it.
 */
export const npmrcFrom = (
  texts: readonly string[],
  aliasOf?: (url: string) => string,
): string | undefined => {
  const values = new Map<string, string[]>();
  for (const text of texts) {
    const seen = new Set<string>();
    for (const line of text.split('\n')) {
      // Split at the first `=` (lazy key and value around `\s*=\s*` backtrack on a long line).
      const eq = line.indexOf('=');
      const written = eq < 0 ? undefined : /^\s*([^=#;\s].*)$/s.exec(line.slice(0, eq))?.[1];
      const key = written === undefined ? undefined : iniValue(written);
      // The value as npm reads it (quotes and an inline comment gone), so what is aliased is what npm would fetch.
      const raw = iniValue(line.slice(eq + 1));
      if (!key || !/^.*$/.test(raw) || !NPM_KEYS.test(key)) continue;
      const value = aliasOf && key.endsWith('registry') ? aliasOf(raw) : withoutUserinfo(raw);
      // A registry that is no URL the alias can stand for is left out, never written as it is.
      if (!value) continue;
      if (values.has(key) && !seen.has(key)) continue;
      seen.add(key);
      values.set(key, [...(values.get(key) ?? []), value]);
    }
  }
  if (values.size === 0) return undefined;
  return [
    aliasOf
      ? '# written by regreen: your npm registries by their aliases (the setup proxy adds your credentials) and TLS settings'
      : '# written by regreen: your npm registries and TLS settings, without credentials',
    ...[...values].flatMap(([key, list]) => list.map((value) => `${key}=${value}`)),
    '',
  ].join('\n');
};

const goModuleDownloads = (home: string, env: Env): string | undefined => {
  const settings = settingsOf(env);
  const gopath = (settings.goPath ?? '').split(':').find((entry) => path.isAbsolute(entry));
  const modcache = settings.goModCache ?? path.join(gopath ?? path.join(home, 'go'), 'pkg', 'mod');
  const downloads = path.join(modcache, 'cache', 'download');
  return path.isAbsolute(downloads) && existsSync(downloads) ? downloads : undefined;
};

const xmlText = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** A `~/.mavenrc` adding, to the user's MAVEN_OPTS, that `file://` repositories stay readable offline. */
export const MAVEN_RC = 'MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }-Daether.offline.protocols=file"\n';

/** A settings.xml whose always-active profile reads the host's repository first. */
export const mavenSettings = (repository: string): string => {
  const url = xmlText(`file://${repository}`);
  const repo = (tag: string): string =>
    `<${tag}><id>regreen-host-cache</id><url>${url}</url><releases><enabled>true</enabled></releases><snapshots><enabled>false</enabled></snapshots></${tag}>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    "<!-- written by regreen: the host's Maven repository, read-only, as a local registry -->",
    '<settings>',
    '  <profiles><profile><id>regreen-host-cache</id>',
    `    <repositories>${repo('repository')}</repositories>`,
    `    <pluginRepositories>${repo('pluginRepository')}</pluginRepositories>`,
    '  </profile></profiles>',
    '  <activeProfiles><activeProfile>regreen-host-cache</activeProfile></activeProfiles>',
    '</settings>',
    '',
  ].join('\n');
};

export const hostDependencyCaches = (options: {
  readonly home: string;
  readonly env: Env;
  readonly goProxy: GoProxyOf;
  readonly pipConfig?: PipConfigOf;
  readonly npmConfig?: () => readonly string[];
  /** The sandbox's registry aliases: every registry URL written is named by its alias. */
  readonly aliasOf?: (url: string) => string;
}): DependencyCaches => {
  const readable: string[] = [];
  const variables: Record<string, string> = {};
  const homeFiles: Record<string, string> = {};
  const { aliasOf } = options;
  const pipConf = options.pipConfig ? pipConfFrom(options.pipConfig(), aliasOf) : undefined;
  if (pipConf) homeFiles[path.join('.config', 'pip', 'pip.conf')] = pipConf;
  const npmrc = options.npmConfig ? npmrcFrom(options.npmConfig(), aliasOf) : undefined;
  if (npmrc) homeFiles['.npmrc'] = npmrc;
  // The operator may keep their caches to themselves (private artifacts, say).
  if (settingsOf(options.env).hostCaches === 'off') return { readable, env: variables, homeFiles };
  const downloads = goModuleDownloads(options.home, options.env);
  if (downloads) {
    readable.push(downloads);
    const proxy = (settingsOf(options.env).goProxy ?? options.goProxy()).trim();
    const named = aliasOf ? aliasWords(proxy, aliasOf) : proxy;
    variables['GOPROXY'] = [`file://${downloads}`, ...(named ? [named] : [])].join(',');
  }
  const m2 = path.join(options.home, '.m2', 'repository');
  if (existsSync(m2)) {
    readable.push(m2);
    homeFiles[path.join('.m2', 'settings.xml')] = mavenSettings(m2);
    homeFiles['.mavenrc'] = MAVEN_RC;
    Object.assign(homeFiles, gradleRepositoryFiles(m2));
  }
  return { readable, env: variables, homeFiles };
};
