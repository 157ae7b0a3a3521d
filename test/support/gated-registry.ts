/**
 * A private registry in front of one of the tests' loopback registries (`pypi-index.ts`,
 * `npm-registry.ts`): it answers only a request that carries its credential where private
 * registries carry one — the userinfo (`Authorization: Basic`), the path's first segment
 * (Cloudsmith's, Gemfury's entitlement URLs), a query parameter, or the host name — and, as they
 * do, its pages and packuments link with that credential in the link (an absolute URL with the
 * token in its path or query, a host-absolute `href="/<TOKEN>/files/…"`).
 */
import { createServer, request, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export type Gate =
  | { readonly kind: 'basic'; readonly user: string; readonly password: string }
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'path'; readonly token: string }
  | { readonly kind: 'query'; readonly key: string; readonly token: string }
  | { readonly kind: 'host'; readonly token: string };

export interface GatedRegistry {
  /** The operator's URL of the inner registry's `path` (`/simple/`, `/`): the credential in it. */
  url(path: string): string;
  /** `127.0.0.1:port`, as the set-up's allow-list names it. */
  readonly endpoint: string;
  /** Requests answered (credential right) and refused. */
  readonly served: () => number;
  readonly refused: () => number;
  close(): Promise<void>;
}

/** `tls`: served over HTTPS with this key and certificate (a company CA's registry). */
export const startGatedRegistry = async (
  inner: string,
  gate: Gate,
  tls?: { readonly key: string; readonly cert: string },
): Promise<GatedRegistry> => {
  const innerUrl = new URL(inner);
  const scheme = tls ? 'https' : 'http';
  let port = 0;
  let served = 0;
  let refused = 0;
  const host = (): string =>
    gate.kind === 'host' ? `${gate.token}.localhost:${port}` : `127.0.0.1:${port}`;
  /** A link of the inner registry's (`/files/x.whl#sha256=…`) as this registry writes it. */
  const linkOf = (innerPath: string, absolute: boolean): string => {
    const [pathPart = '', fragment] = innerPath.split('#');
    const hash = fragment === undefined ? '' : `#${fragment}`;
    switch (gate.kind) {
      case 'path':
        return `${absolute ? `${scheme}://${host()}` : ''}/${gate.token}${pathPart}${hash}`;
      case 'query':
        return `${scheme}://${host()}${pathPart}?${gate.key}=${gate.token}${hash}`;
      default:
        return `${scheme}://${host()}${pathPart}${hash}`;
    }
  };
  const admitted = (url: URL, authorization: string | undefined): string | undefined => {
    switch (gate.kind) {
      case 'basic': {
        const wanted = `Basic ${Buffer.from(`${gate.user}:${gate.password}`).toString('base64')}`;
        return authorization === wanted ? url.pathname : undefined;
      }
      case 'bearer':
        return authorization === `Bearer ${gate.token}` ? url.pathname : undefined;
      case 'path':
        return url.pathname.startsWith(`/${gate.token}/`)
          ? url.pathname.slice(gate.token.length + 1)
          : undefined;
      case 'query':
        return url.searchParams.get(gate.key) === gate.token ? url.pathname : undefined;
      case 'host':
        return url.pathname;
    }
  };
  const handler: RequestListener = (req, res) => {
    const url = new URL(req.url ?? '/', `${scheme}://${req.headers.host ?? host()}`);
    if (gate.kind === 'host' && req.headers.host !== host()) {
      refused += 1;
      return void res.writeHead(404).end('no such registry\n');
    }
    const innerPath = admitted(url, req.headers.authorization);
    if (innerPath === undefined) {
      refused += 1;
      return void res
        .writeHead(401, { 'www-authenticate': 'Basic realm="private"' })
        .end('credential required\n');
    }
    served += 1;
    const forward = request(
      { host: innerUrl.hostname, port: innerUrl.port, path: innerPath, method: req.method },
      (answer) => {
        const type = answer.headers['content-type'] ?? '';
        if (!/html|json/.test(type)) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          return void answer.pipe(res);
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks)
            .toString('utf8')
            // The inner registry's absolute links (a packument's tarballs), then its host-absolute ones.
            .replace(/"(http:\/\/127\.0\.0\.1:\d+)(\/[^"]*)"/g, (_, __, rest: string) =>
              JSON.stringify(linkOf(rest, true)),
            )
            .replace(/href="(\/[^"]*)"/g, (_, rest: string) => `href="${linkOf(rest, false)}"`);
          res.writeHead(answer.statusCode ?? 502, { 'content-type': type });
          res.end(body);
        });
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  };
  const server: Server = tls ? createHttpsServer(tls, handler) : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: (path) => {
      switch (gate.kind) {
        case 'basic':
          return `${scheme}://${gate.user}:${gate.password}@${host()}${path}`;
        case 'path':
          return `${scheme}://${host()}/${gate.token}${path}`;
        case 'query':
          return `${scheme}://${host()}${path}?${gate.key}=${gate.token}`;
        case 'host':
        case 'bearer':
          return `${scheme}://${host()}${path}`;
      }
    },
    endpoint: `127.0.0.1:${port}`,
    served: () => served,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
