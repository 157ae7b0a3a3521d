import { ALIAS_ORIGIN, aliasPathOf, type RegistryAlias } from './registry-aliases.ts';

/**
 * What a registry serves, with its links back to the alias: an index page's hrefs (PEP 503), a
 * JSON index's and pip's `url`s (PEP 691), a packument's `dist.tarball`, a sparse cargo index's
 * `dl` and `api`, a redirect's `Location`. Every absolute URL of the registry's origin — with or
 * without the operator's userinfo, scheme-relative too — and every host-absolute link becomes the
 * alias of the same place; what is left of the operator's query parameters on such a link goes
 * (the proxy adds them again upstream). Found by fixed strings and scanned once (a registry
 * serves what its packages' authors wrote): never a pattern built from either.
 */

/** Where a URL in served text ends. */
const ENDS_URL = new Set([' ', '\t', '\r', '\n', '"', "'", '<', '>', '\\', '`', '(', ')']);
/** What may follow an origin for it to be that origin (not `https://host.other`). */
const AFTER_ORIGIN = new Set(['/', '?', '#', ...ENDS_URL]);

/** Attributes and keys whose host-absolute value (`"/files/x.whl"`) is a link. */
const LINK_LEADS = [
  'href="',
  "href='",
  'src="',
  "src='",
  '"url":"',
  '"url": "',
  '"tarball":"',
  '"tarball": "',
  '"dl":"',
  '"dl": "',
  '"api":"',
  '"api": "',
];

const urlEnd = (text: string, from: number): number => {
  let end = from;
  while (end < text.length && !ENDS_URL.has(text.charAt(end))) end += 1;
  return end;
};

/** A path, query and fragment of the registry (`/x?y#z`) as the alias shows it. */
export const aliasedTail = (registry: RegistryAlias, tail: string): string => {
  const hashAt = tail.indexOf('#');
  const fragment = hashAt < 0 ? '' : tail.slice(hashAt);
  const beforeHash = hashAt < 0 ? tail : tail.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  const pathname = (queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt)) || '/';
  const query = queryAt < 0 ? '' : beforeHash.slice(queryAt + 1);
  const own = new Set(new URL(registry.upstream).searchParams.keys());
  const kept = query
    .split('&')
    .filter((pair) => pair !== '' && !own.has(decodeKey(pair.split('=')[0] ?? '')));
  return `${aliasPathOf(registry, pathname)}${kept.length > 0 ? `?${kept.join('&')}` : ''}${fragment}`;
};

const decodeKey = (key: string): string => {
  try {
    return decodeURIComponent(key.replaceAll('+', ' '));
  } catch {
    return key;
  }
};

/** The registry's origin as it may be written: with the operator's userinfo, without, scheme-relative. */
const originForms = (registry: RegistryAlias): string[] => {
  const upstream = new URL(registry.upstream);
  const userinfo = upstream.username
    ? `${upstream.username}${upstream.password ? `:${upstream.password}` : ''}@`
    : '';
  const forms = [
    `${upstream.protocol}//${userinfo}${upstream.host}`,
    `${upstream.protocol}//${upstream.host}`,
    `//${upstream.host}`,
  ];
  return [...new Set(forms)];
};

interface Found {
  readonly at: number;
  readonly length: number;
  readonly replacement: string;
}

/** Where each form next occurs (-1: nowhere more), found again only once passed: one scan per form. */
const originFinder = (text: string, forms: readonly string[]) => {
  const next = forms.map(() => -2);
  const find = (form: string, from: number): number => {
    let at = text.indexOf(form, from);
    while (at >= 0 && !AFTER_ORIGIN.has(text.charAt(at + form.length) || ' '))
      at = text.indexOf(form, at + 1);
    return at;
  };
  return (from: number): { at: number; form: string } | undefined => {
    let best: { at: number; form: string } | undefined;
    forms.forEach((form, index) => {
      const known = next[index] ?? -1;
      const at = known === -1 ? -1 : known >= from ? known : find(form, from);
      next[index] = at;
      if (at >= 0 && (!best || at < best.at || (at === best.at && form.length > best.form.length)))
        best = { at, form };
    });
    return best;
  };
};

/** Every place in `text` that links into the registry, with what the alias writes there. */
const linksIn = (text: string, registry: RegistryAlias): Found[] => {
  const found: Found[] = [];
  const nextOrigin = originFinder(text, originForms(registry));
  for (let from = 0; ;) {
    const next = nextOrigin(from);
    if (!next) break;
    const start = next.at + next.form.length;
    const end = urlEnd(text, start);
    // `//host` inside `scheme://host` is the same link, already found at the scheme.
    found.push({
      at: next.at,
      length: end - next.at,
      replacement: `${ALIAS_ORIGIN}${aliasedTail(registry, text.slice(start, end))}`,
    });
    from = Math.max(end, next.at + 1);
  }
  for (const lead of LINK_LEADS) {
    for (let at = text.indexOf(lead); at >= 0; at = text.indexOf(lead, at + 1)) {
      const start = at + lead.length;
      if (text.charAt(start) !== '/' || text.charAt(start + 1) === '/') continue;
      const end = urlEnd(text, start);
      found.push({
        at: start,
        length: end - start,
        replacement: aliasedTail(registry, text.slice(start, end)),
      });
    }
  }
  found.push(...pathsIn(text, registry));
  return found.sort((a, b) => a.at - b.at);
};

/** May stand before a host-absolute path in text: not a character of a URL's host or path. */
const BEFORE_PATH = new Set([...ENDS_URL, '=', ':', ',', ';', '[', '{']);

/**
 * Every host-absolute path that begins with the registry's own first segment, wherever it stands
 * (an error page that echoes the path asked for): the segments it shares with the registry's
 * become `~`s. A path that begins otherwise holds none of the operator's segments.
 */
const pathsIn = (text: string, registry: RegistryAlias): Found[] => {
  const first = new URL(registry.upstream).pathname.split('/')[1];
  if (!first) return [];
  const needle = `/${first}`;
  const found: Found[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const before = at === 0 ? ' ' : text.charAt(at - 1);
    const after = text.charAt(at + needle.length) || ' ';
    if (!BEFORE_PATH.has(before) || !AFTER_ORIGIN.has(after)) continue;
    const end = urlEnd(text, at);
    found.push({ at, length: end - at, replacement: aliasedTail(registry, text.slice(at, end)) });
  }
  return found;
};

/**
 * What is left of the operator's URL outside a link, as exact strings: each of its query
 * parameters written out (`channel=<TOKEN>`, encoded or not) loses its value, and its host name
 * (when it is a name) becomes the alias's.
 */
const withoutRemnants = (text: string, registry: RegistryAlias): string => {
  const upstream = new URL(registry.upstream);
  let out = text;
  for (const [key, value] of upstream.searchParams) {
    if (!value) continue;
    for (const pair of [`${key}=${value}`, new URLSearchParams([[key, value]]).toString()])
      out = out.split(pair).join(`${key}=`);
  }
  const host = upstream.hostname;
  if (!/^[\d.]+$/.test(host) && !host.startsWith('[')) out = out.split(host).join('127.0.0.1');
  return out;
};

/** Served text with every link into the registry pointing at its alias. */
export const rewriteLinks = (text: string, registry: RegistryAlias): string => {
  const parts: string[] = [];
  let done = 0;
  for (const link of linksIn(text, registry)) {
    if (link.at < done) continue;
    parts.push(text.slice(done, link.at), link.replacement);
    done = link.at + link.length;
  }
  parts.push(text.slice(done));
  return withoutRemnants(parts.join(''), registry);
};

/** A `Location` the registry answered with, as the alias's (a relative one resolved against the request first). */
export const rewriteLocation = (
  location: string,
  registry: RegistryAlias,
  requested: URL,
): string => {
  let target: URL;
  try {
    target = new URL(location, requested);
  } catch {
    return location;
  }
  return target.origin === requested.origin
    ? `${ALIAS_ORIGIN}${aliasedTail(registry, `${target.pathname}${target.search}${target.hash}`)}`
    : location;
};
