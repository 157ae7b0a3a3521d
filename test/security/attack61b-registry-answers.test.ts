/**
 * attack61b (issue 61, class 3, second round): the answers of the operator's registry, passed to
 * the sandbox through the setup proxy, carried the credential the proxy added on the host — a
 * redirect to another origin, a login redirect naming the path, a cookie's path, a `Link:`
 * header, an error body that is not text, a percent-encoded link, a path without its leading
 * `/` — and the alias reached any path of the registry's origin with the credential (an
 * Artifactory's API key answered into the sandbox). Each answer here comes from a loopback
 * upstream speaking HTTP, through the real proxy on its unix socket.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryAliases } from '../../src/workspace/sandbox/registry-aliases.ts';
import { startSetupProxy, type SetupProxy } from '../../src/workspace/sandbox/setup-proxy.ts';

const TOKEN = 'AKCp8tok3nZZsecret';
const BASIC = `Basic ${Buffer.from('ci-bot:operator-pw-1').toString('base64')}`;
const API_KEY = 'OPERATOR-API-KEY-777';

interface Peer {
  readonly port: number;
  readonly seen: { url: string; authorization: string }[];
  close(): void;
}

const listen = async (
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Peer> => {
  const seen: Peer['seen'] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization ?? '' });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => server.close(),
  };
};

let files: Peer;
let upstream: Peer;
let proxy: SetupProxy;
let alias: string;

interface Answer {
  readonly status: number | undefined;
  readonly headers: Record<string, unknown>;
  readonly body: string;
  readonly cut: boolean;
}

const ask = (path: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const sent = request(
      { socketPath: proxy.socketPath, path, headers: { host: '127.0.0.1:3128' } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('latin1')));
        const done = (cut: boolean) => () =>
          resolve({ status: res.statusCode, headers: res.headers, body, cut });
        res.on('end', done(false));
        res.on('error', done(true));
        res.on('aborted', done(true));
      },
    );
    sent.on('error', reject);
    sent.end();
  });

/** Nothing of the credential in any form: the token, the API key, the password, the `Authorization`. */
const expectClean = (answer: Answer): void => {
  const all = JSON.stringify(answer).toLowerCase();
  for (const secret of [TOKEN, API_KEY, 'operator-pw-1', BASIC.slice(6)])
    expect(all).not.toContain(secret.toLowerCase());
};

beforeAll(async () => {
  files = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('WHEEL-BYTES');
  });
  upstream = await listen((req, res) => {
    const url = req.url ?? '';
    const leaf = url.split('?')[0]?.split('/').filter(Boolean).at(-1);
    const authorized = req.headers.authorization === BASIC;
    if (url === '/api/security/apiKey' && authorized)
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ apiKey: API_KEY }));
    if (!url.startsWith(`/${TOKEN}/`))
      return void res.writeHead(401, { 'content-type': 'text/plain' }).end('please log in');
    const text = (type: string | undefined, body: string, status = 200) => {
      res.writeHead(status, type ? { 'content-type': type } : {}).end(body);
    };
    switch (leaf) {
      case 'cdn':
        return void res
          .writeHead(302, { location: `http://127.0.0.1:${files.port}${url}x.whl` })
          .end();
      case 'login':
        return void res
          .writeHead(302, { location: `/login?next=${encodeURIComponent(url)}` })
          .end();
      case 'cookie':
        return void res
          .writeHead(200, { 'set-cookie': `s=1; Path=${url}`, 'content-type': 'text/html' })
          .end('ok');
      case 'link':
        return void res
          .writeHead(200, {
            link: `<http://127.0.0.1:${upstream.port}${url}?page=2>; rel="next"`,
            'content-type': 'application/json',
          })
          .end('[]');
      case 'octet':
        return text('application/octet-stream', `not found: ${url}`, 404);
      case 'untyped':
        return text(undefined, `not found: ${url}`, 404);
      case 'encoded':
        return text('text/html', `<a href="/login?next=${encodeURIComponent(url)}">log in</a>`);
      case 'jsonpath':
        return text(
          'application/json',
          JSON.stringify({ message: `Could not find ${url.slice(1)}` }),
          404,
        );
      case 'etag':
        return void res
          .writeHead(200, { etag: `"${url}"`, 'content-type': 'application/json' })
          .end('{}');
      case 'echo-auth':
        return text('application/octet-stream', `you sent ${req.headers.authorization ?? ''}`);
      case 'split':
        // The token in two writes, the second after the first has passed the proxy.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.write(`${'x'.repeat(70_000)}${TOKEN.slice(0, 9)}`);
        return void setTimeout(() => res.end(`${TOKEN.slice(9)}${'y'.repeat(100)}`), 100);
      case 'tarball':
        return text('application/octet-stream', 'TARBALL-'.repeat(20_000));
      default:
        return text('text/plain', 'no', 404);
    }
  });
  const aliases = registryAliases();
  alias = new URL(
    aliases.aliasOf(`http://ci-bot:operator-pw-1@127.0.0.1:${upstream.port}/${TOKEN}/simple/`),
  ).pathname;
  proxy = await startSetupProxy([], aliases.list());
});

afterAll(async () => {
  await proxy?.close();
  upstream?.close();
  files?.close();
});

describe('what the registry answers carries no form of the credential (3a–g)', () => {
  it('a redirect to another origin is followed on the host, without the credential (3a)', async () => {
    const answer = await ask(`${alias}cdn/`);
    expectClean(answer);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('WHEEL-BYTES');
    expect(answer.headers.location).toBeUndefined();
    expect(files.seen.map((seen) => seen.authorization)).toEqual(['']);
  });

  it('a login redirect naming the path is followed, not passed (3b)', async () => {
    const before = upstream.seen.length;
    const answer = await ask(`${alias}login/`);
    expectClean(answer);
    expect(answer.headers.location).toBeUndefined();
    expect([answer.status, answer.body]).toEqual([401, 'please log in']);
    // Outside the registry's own path: asked without the credential.
    expect(upstream.seen.slice(before).map((seen) => seen.authorization)).toEqual([BASIC, '']);
  });

  it.each([
    ['a cookie’s path (3c)', 'cookie', 200],
    ['a Link header (3d)', 'link', 200],
  ])('%s: the header does not pass', async (_what, leaf, status) => {
    const answer = await ask(`${alias}${leaf}/`);
    expectClean(answer);
    expect(answer.status).toBe(status);
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.headers.link).toBeUndefined();
  });

  it.each([
    ['an error body that is not text (3e)', 'octet'],
    ['an error body without a content type (3e)', 'untyped'],
    ['a percent-encoded link (3f)', 'encoded'],
    ['a JSON error naming the path without its leading / (3g)', 'jsonpath'],
    ['the Authorization the proxy added, echoed', 'echo-auth'],
    ['a header that passes (an ETag) naming the path', 'etag'],
  ])('%s: refused with a fixed 502', async (_what, leaf) => {
    const answer = await ask(`${alias}${leaf}/`);
    expectClean(answer);
    expect(answer.status).toBe(502);
    expect(answer.body).toBe(
      'regreen setup proxy: registry 0 answered with a part of its credential: refused\n',
    );
  });

  it('a token split across two chunks of a streamed body is found whole, nothing of it passed', async () => {
    const answer = await ask(`${alias}split/`);
    expectClean(answer);
    expect(answer.body).not.toContain(TOKEN.slice(0, 9));
    expect(answer.status === 502 || answer.cut || answer.body.length < 70_000 + 9).toBe(true);
  });

  it('an archive without any piece passes whole', async () => {
    const answer = await ask(`${alias}tarball/`);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('TARBALL-'.repeat(20_000));
  });
});

describe('the alias reaches only the registry’s own subtree (3h)', () => {
  it.each([
    '/regreen-registry/0/api/security/apiKey',
    '/regreen-registry/0/~/../../../api/security/apiKey',
    '/regreen-registry/0/~/../../..',
    '/regreen-registry/0/~/%2e%2e/api/security/apiKey',
    '/regreen-registry/0/~/..%2f..%2fapi/security/apiKey',
    '/regreen-registry/0/~/..%5Capi',
    '/regreen-registry/0/~/~/..\\..\\api',
    '/regreen-registry/0/~/%zz/',
  ])('%s: 403, the upstream never asked', async (path) => {
    const before = upstream.seen.length;
    const answer = await ask(path);
    expectClean(answer);
    expect(answer.status).toBe(403);
    expect(upstream.seen.length).toBe(before);
  });

  it('a path inside it, climbing out of the index to its files, is served', async () => {
    const answer = await ask('/regreen-registry/0/~/~/x/../../~/tarball/');
    expect(answer.status).toBe(200);
  });
});
