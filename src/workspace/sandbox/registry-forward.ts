import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { upstreamPathOf, type RegistryAlias } from './registry-aliases.ts';
import { rewriteLinks, rewriteLocation } from './registry-links.ts';

/**
 * One request for a registry's alias, served by the host: sent to the operator's URL with the
 * operator's credential (the userinfo as `Authorization: Basic`, the path's and query's own
 * tokens put back), and answered with the links of what comes back pointing at the alias. The
 * sandbox's client never holds the credential, so it cannot print, store or send it anywhere; and
 * it may only read with it (GET and HEAD): never publish, unpublish or delete in its name.
 */

/** The most of one text answer rewritten in memory; a larger one is refused, said so. */
export const REWRITTEN_MAX_BYTES = 128 * 1024 * 1024;

/** Answers whose links are rewritten: pages, JSON, XML, text. Archives pass through as they are. */
const isText = (contentType: string | undefined): boolean =>
  /html|json|xml|^text\//i.test(contentType ?? '');

const HOP_HEADERS = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'upgrade',
  'te',
  'host',
];

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

/** The upstream URL of an alias request: the operator's origin, its path put back, its query parameters added. */
export const upstreamUrlOf = (registry: RegistryAlias, rest: string): URL => {
  const upstream = new URL(registry.upstream);
  const queryAt = rest.indexOf('?');
  const target = new URL(upstream.origin);
  target.pathname = upstreamPathOf(registry, queryAt < 0 ? rest : rest.slice(0, queryAt));
  target.search = queryAt < 0 ? '' : rest.slice(queryAt);
  for (const [key, value] of upstream.searchParams)
    if (!target.searchParams.has(key)) target.searchParams.append(key, value);
  return target;
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

export const forwardToRegistry = (
  req: IncomingMessage,
  res: ServerResponse,
  registry: RegistryAlias,
  rest: string,
  /** Certificates the operator's clients trust besides Node's own (PEM). */
  trust: readonly string[] = [],
): void => {
  // Reads only: the credential is the operator's, and a set-up has nothing to publish or delete.
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    req.resume();
    res
      .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' })
      .end(`regreen setup proxy: registry ${registry.id} is only read (GET, HEAD)\n`);
    return;
  }
  const target = upstreamUrlOf(registry, rest);
  const headers = { ...req.headers };
  for (const name of HOP_HEADERS) delete headers[name];
  // Text comes back as it is, so its links can be rewritten (archives are compressed already).
  headers['accept-encoding'] = 'identity';
  const credential = basicOf(new URL(registry.upstream)) ?? registry.authorization;
  if (credential) headers.authorization = credential;
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  // Never the upstream's name or error text: either may be the credential (a host name that is a token).
  const failed = (why: string): void => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`regreen setup proxy: registry ${registry.id} ${why}\n`);
  };
  const options = {
    method: req.method ?? 'GET',
    headers,
    ...(target.protocol === 'https:' && trust.length > 0
      ? { ca: [...rootCertificates, ...trust] }
      : {}),
  };
  const upstream = send(target, options, (response) => {
    const out = { ...response.headers };
    for (const name of ['connection', 'keep-alive', 'transfer-encoding'])
      delete out[name as keyof typeof out];
    for (const name of ['location', 'content-location'] as const) {
      const value = out[name];
      if (typeof value === 'string') out[name] = rewriteLocation(value, registry, target);
    }
    if (!isText(response.headers['content-type']) || req.method === 'HEAD') {
      res.writeHead(response.statusCode ?? 502, out);
      response.pipe(res);
      return;
    }
    delete out['content-encoding'];
    delete out['content-length'];
    const chunks: Buffer[] = [];
    let size = 0;
    const body = decoded(response);
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > REWRITTEN_MAX_BYTES) {
        body.destroy();
        response.destroy();
        failed(`answered more than ${REWRITTEN_MAX_BYTES} bytes of text to rewrite`);
        return;
      }
      chunks.push(chunk);
    });
    body.on('error', () => failed('answered text that could not be decoded'));
    body.on('end', () => {
      if (res.writableEnded) return;
      const text = rewriteLinks(Buffer.concat(chunks).toString('utf8'), registry);
      const bytes = Buffer.from(text, 'utf8');
      res.writeHead(response.statusCode ?? 502, {
        ...out,
        'content-length': String(bytes.length),
      });
      res.end(bytes);
    });
  });
  upstream.on('error', (error: NodeJS.ErrnoException) =>
    failed(`could not be reached (${error.code ?? 'error'})`),
  );
  req.pipe(upstream);
};
