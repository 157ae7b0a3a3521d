import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import {
  baseSegments,
  confinedUpstreamPath,
  subtreeOf,
  type RegistryAlias,
} from './registry-aliases.ts';
import { rewriteLinks } from './registry-links.ts';
import { bodyScan, echoesOf, holdsSpelling, scanText } from './registry-secrets.ts';

/**
 * One request for a registry's alias, served by the host: sent to the operator's URL with the
 * operator's credential (the userinfo as `Authorization: Basic`, the path's and query's own
 * tokens put back), and answered with the links of what comes back pointing at the alias. The
 * sandbox's client never holds the credential, so it cannot print, store or send it anywhere; and
 * it may only read with it (GET and HEAD): never publish, unpublish or delete in its name.
 *
 * What holds by construction, not by the spellings the rewriter knows:
 * - a request reaches only the registry's own subtree (`confinedUpstreamPath`): else 403, the
 *   upstream never asked;
 * - a redirect is followed here on the host (the credential only while it stays in that subtree),
 *   never passed to the sandbox;
 * - of the answer's headers only an allow-list passes, and every one of them and the whole body
 *   (any content type, streamed) is scanned for every spelling of every secret piece of the
 *   operator's URLs (`registry-secrets.ts`): one found, and the answer is a 502 with a fixed
 *   message (or, once bytes have passed, the connection is cut before the piece).
 */

/** The most of one text answer rewritten in memory; a larger one is refused, said so. */
export const REWRITTEN_MAX_BYTES = 128 * 1024 * 1024;
/** Redirects followed on the host for one request. */
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** The answer's headers the sandbox is given (the body's length is its own). */
const PASSED_HEADERS = ['content-type', 'etag', 'last-modified', 'cache-control'];
/** The request's headers the upstream is given. */
const ASKED_HEADERS = [
  'accept',
  'user-agent',
  'if-none-match',
  'if-modified-since',
  'range',
  'npm-command',
  'npm-session',
  'npm-scope',
];

/** Answers whose links are rewritten: pages, JSON, XML, text. Archives are scanned as they pass. */
const isText = (contentType: string | undefined): boolean =>
  /html|json|xml|^text\//i.test(contentType ?? '');

const decoded = (response: IncomingMessage): Readable => {
  switch ((response.headers['content-encoding'] ?? '').toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip());
    case 'deflate':
      return response.pipe(createInflate());
    case 'br':
      return response.pipe(createBrotliDecompress());
    default:
      return response;
  }
};

/** The upstream URL of an alias request (`undefined`: outside the registry's subtree). */
export const upstreamUrlOf = (registry: RegistryAlias, rest: string): URL | undefined => {
  const upstream = new URL(registry.upstream);
  const queryAt = rest.indexOf('?');
  const pathname = confinedUpstreamPath(registry, queryAt < 0 ? rest : rest.slice(0, queryAt));
  if (pathname === undefined) return undefined;
  const target = new URL(upstream.origin);
  target.pathname = pathname;
  target.search = queryAt < 0 ? '' : rest.slice(queryAt);
  for (const [key, value] of upstream.searchParams)
    if (!target.searchParams.has(key)) target.searchParams.append(key, value);
  return target;
};

/** Whether a URL is inside the registry's subtree: the only place its credential is sent. */
const insideRegistry = (registry: RegistryAlias, url: URL): boolean => {
  const upstream = new URL(registry.upstream);
  if (url.origin !== upstream.origin) return false;
  const asked = url.pathname.slice(1).split('/');
  return subtreeOf(baseSegments(upstream)).every((segment, index) => asked[index] === segment);
};

/** `Authorization: Basic` of the operator's userinfo, as clients send it. */
const basicOf = (upstream: URL): string | undefined => {
  if (!upstream.username && !upstream.password) return undefined;
  const part = (text: string): string => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const pair = `${part(upstream.username)}:${part(upstream.password)}`;
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
};

export interface ForwardOptions {
  /** Certificates the operator's clients trust besides Node's own (PEM). */
  readonly trust?: readonly string[];
  /** Every spelling of every secret piece of the operator's registries (`secretSpellings`). */
  readonly spellings?: readonly string[];
}

export const forwardToRegistry = (
  req: IncomingMessage,
  res: ServerResponse,
  registry: RegistryAlias,
  rest: string,
  options: ForwardOptions = {},
): void => {
  const trust = options.trust ?? [];
  const spellings = options.spellings ?? [];
  const say = (status: number, message: string, headers: Record<string, string> = {}): void => {
    // Once bytes have passed, a message would join the body: the connection is cut instead.
    if (res.headersSent) res.destroy();
    else
      res
        .writeHead(status, { 'content-type': 'text/plain', ...headers })
        .end(`regreen setup proxy: registry ${registry.id} ${message}\n`);
  };
  // Reads only: the credential is the operator's, and a set-up has nothing to publish or delete.
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    req.resume();
    say(405, 'is only read (GET, HEAD)', { allow: 'GET, HEAD' });
    return;
  }
  req.resume();
  const first = upstreamUrlOf(registry, rest);
  if (!first) {
    say(403, 'serves only its own path: that request names a place outside it');
    return;
  }
  const echoes = echoesOf([rest, String(req.headers.accept ?? '')]);
  const holds = (text: string): boolean => holdsSpelling(scanText(text), spellings, echoes);
  // Never the upstream's name, error text or answer: any of them may be the credential.
  const leaked = (): void => say(502, 'answered with a part of its credential: refused');
  const asked: Record<string, string> = { 'accept-encoding': 'identity' };
  for (const name of ASKED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') asked[name] = value;
  }
  const credential = basicOf(new URL(registry.upstream)) ?? registry.authorization;

  const fetchFrom = (target: URL, hops: number): void => {
    const headers = { ...asked };
    if (credential && insideRegistry(registry, target)) headers.authorization = credential;
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const upstream = send(
      target,
      {
        method: req.method ?? 'GET',
        headers,
        ...(target.protocol === 'https:' && trust.length > 0
          ? { ca: [...rootCertificates, ...trust] }
          : {}),
      },
      (response) => {
        const status = response.statusCode ?? 502;
        const location = response.headers.location;
        if (REDIRECTS.has(status) && location !== undefined) {
          response.resume();
          let next: URL;
          try {
            next = new URL(location, target);
          } catch {
            say(502, 'redirected to a place that is not a URL');
            return;
          }
          if (next.protocol !== 'http:' && next.protocol !== 'https:')
            say(502, 'redirected to a place that is not http(s)');
          else if (hops >= MAX_REDIRECTS) say(502, `redirected more than ${MAX_REDIRECTS} times`);
          else fetchFrom(next, hops + 1);
          return;
        }
        answer(response, status);
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) =>
      say(502, `could not be reached (${error.code ?? 'error'})`),
    );
    upstream.end();
  };

  const answer = (response: IncomingMessage, status: number): void => {
    const out: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const value = response.headers[name];
      if (typeof value === 'string') out[name] = value;
    }
    if (holds(JSON.stringify(out))) {
      response.resume();
      leaked();
      return;
    }
    if (req.method === 'HEAD') {
      response.resume();
      res.writeHead(status, out).end();
      return;
    }
    const body = decoded(response);
    body.on('error', () => say(502, 'answered a body that could not be decoded'));
    if (isText(response.headers['content-type'])) rewritten(body, status, out);
    else scanned(body, status, out);
  };

  /** Text: its links pointed at the alias, then the whole of it scanned. */
  const rewritten = (body: Readable, status: number, out: Record<string, string>): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > REWRITTEN_MAX_BYTES) {
        body.destroy();
        say(502, `answered more than ${REWRITTEN_MAX_BYTES} bytes of text to rewrite`);
        return;
      }
      chunks.push(chunk);
    });
    body.on('end', () => {
      if (res.writableEnded) return;
      const text = rewriteLinks(Buffer.concat(chunks).toString('utf8'), registry);
      if (holds(text)) {
        leaked();
        return;
      }
      const bytes = Buffer.from(text, 'utf8');
      res.writeHead(status, { ...out, 'content-length': String(bytes.length) }).end(bytes);
    });
  };

  /** Anything else: passed as it streams, every byte scanned first. */
  const scanned = (body: Readable, status: number, out: Record<string, string>): void => {
    const scan = bodyScan(spellings, echoes);
    const pass = (bytes: Buffer): void => {
      if (bytes.length === 0) return;
      if (!res.headersSent) res.writeHead(status, out);
      res.write(bytes);
    };
    body.on('data', (chunk: Buffer) => {
      if (res.writableEnded || res.destroyed) return;
      const bytes = scan.push(chunk);
      if (bytes === undefined) {
        body.destroy();
        leaked();
      } else pass(bytes);
    });
    body.on('end', () => {
      if (res.writableEnded || res.destroyed) return;
      const bytes = scan.end();
      if (bytes === undefined) {
        leaked();
        return;
      }
      pass(bytes);
      if (!res.headersSent) res.writeHead(status, out);
      res.end();
    });
  };

  fetchFrom(first, 0);
};
