/**
 * The `Authorization` npm would send to a registry from the operator's npmrc texts: the token
 * (`//host[:port]/path/:_authToken=…`, `${VAR}` read from the operator's environment) or the
 * basic pair (`:_auth=…`, or `:username=` with a base64 `:_password=`) of the longest
 * `//host/path/` that begins the registry's URL, as npm matches them. Host-side only: the
 * sandbox is given the registry by its alias, and its npmrc never holds these lines.
 */
export const npmAuthorizationFor = (
  registry: string,
  texts: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string | undefined => {
  let url: URL;
  try {
    url = new URL(registry);
  } catch {
    return undefined;
  }
  const nerf = `//${url.host}${url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`}`;
  const expand = (value: string): string =>
    value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? '');
  const found = new Map<string, Map<string, string>>();
  for (const text of texts)
    for (const line of text.split('\n')) {
      const trimmed = line.trim();
      if (!trimmed.startsWith('//')) continue;
      const eq = trimmed.indexOf('=');
      const colon = eq < 0 ? -1 : trimmed.lastIndexOf(':', eq);
      if (colon < 0) continue;
      const prefix = trimmed.slice(0, colon);
      const key = trimmed.slice(colon + 1, eq).trim();
      if (!nerf.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)) continue;
      const keys = found.get(prefix) ?? new Map<string, string>();
      // The first file that sets it wins, as npm's order has it.
      if (!keys.has(key)) keys.set(key, expand(trimmed.slice(eq + 1).trim()));
      found.set(prefix, keys);
    }
  const [, keys] = [...found].sort(([a], [b]) => b.length - a.length)[0] ?? [];
  if (!keys) return undefined;
  const token = keys.get('_authToken');
  if (token) return `Bearer ${token}`;
  const auth = keys.get('_auth');
  if (auth) return `Basic ${auth}`;
  const [user, password] = [keys.get('username'), keys.get('_password')];
  if (user && password) {
    const plain = Buffer.from(password, 'base64').toString('utf8');
    return `Basic ${Buffer.from(`${user}:${plain}`, 'utf8').toString('base64')}`;
  }
  return undefined;
};
