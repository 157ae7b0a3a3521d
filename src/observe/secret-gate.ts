import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The cookie a first `/jobs?key=` visit sets (path /jobs only). */
export const DASHBOARD_COOKIE = 'regreen_dashboard';

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The secret a request presents: a bearer token, the dashboard's cookie, or `?key=`. */
const presented = (req: IncomingMessage, url: URL): string | undefined => {
  const bearer = /^Bearer\s+(\S.*)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  const cookie = (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([name]) => name === DASHBOARD_COOKIE)?.[1];
  if (cookie) return decodeURIComponent(cookie);
  return url.searchParams.get('key') ?? undefined;
};

/** Whether the request presents `secret` (compared in constant time). */
export const presentsSecret = (req: IncomingMessage, url: URL, secret: string): boolean => {
  const key = presented(req, url);
  return key !== undefined && same(key, secret);
};

/** What a 401 says: which secret, where the server reads it, and the ways to pass it. */
export const secretNeeded = (what: {
  readonly page: string;
  readonly secret: string;
  readonly setting: string;
  readonly ways: readonly string[];
}): string =>
  `${what.page} needs the ${what.secret} (${what.setting} on the server). Pass it ${what.ways.join(', or ')}.`;
