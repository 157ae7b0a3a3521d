import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ALIAS_HOST, aliasTarget, type RegistryAlias } from './registry-aliases.ts';
import { forwardToRegistry } from './registry-forward.ts';
import { secretSpellings } from './registry-secrets.ts';

/**
 * The setup step's only way out of the sandbox: an HTTP proxy (CONNECT for
 * TLS, absolute-URI requests for plain HTTP) that regreen runs on the host,
 * listening on a unix socket bound into that one command's sandbox. It lets
 * through exactly the `host:port` pairs of the allow-list — a registry at
 * `127.0.0.1:4873` does not open the host's Redis on `127.0.0.1:6379` — and
 * answers everything else with 403 and the reason.
 *
 * It also serves the operator's registries under their aliases (`registry-aliases.ts`): a request
 * for `http://127.0.0.1:3128/regreen-registry/<n>/…` (or for that path, from a client that connects
 * to the bridge directly) is sent to the operator's URL from the host, credential and all
 * (`registry-forward.ts`).
 */

export interface AllowedEndpoint {
  readonly host: string;
  readonly port: number;
}

/** `host:port`, `[v6]:port`, or a bare host (ports 80 and 443). */
export const parseEndpoints = (entries: readonly string[]): AllowedEndpoint[] =>
  entries.flatMap((entry): AllowedEndpoint[] => {
    const match = /^\[?([^\]]+?)\]?(?::(\d{1,5}))?$/.exec(entry.trim());
    if (!match?.[1]) return [];
    const host = match[1].toLowerCase();
    if (match[2] === undefined)
      return [
        { host, port: 80 },
        { host, port: 443 },
      ];
    const port = Number(match[2]);
    return port > 0 && port < 65536 ? [{ host, port }] : [];
  });

const normalHost = (host: string): string => host.replace(/^\[|\]$/g, '').toLowerCase();

/** How many refused endpoints the diagnosis names, and how much of each name. */
const REFUSED_SHOWN = 10;
const REFUSED_NAME_CHARS = 100;

export interface SetupProxy {
  /** The unix socket the sandbox's bridge connects to. */
  readonly socketPath: string;
  /** Requests refused, as `host:port` (for the diagnosis): the first distinct ones, bounded. */
  readonly refused: readonly string[];
  /** How many requests were refused in all. */
  readonly refusedCount: () => number;
  close(): Promise<void>;
}

/** The alias path a request names: origin-form, or absolute-form for the alias's own host. */
const aliasPathOf = (requestUrl: string): string | undefined => {
  if (requestUrl.startsWith('/')) return requestUrl;
  try {
    const target = new URL(requestUrl);
    return target.protocol === 'http:' && target.host === ALIAS_HOST
      ? `${target.pathname}${target.search}`
      : undefined;
  } catch {
    return undefined;
  }
};

export const startSetupProxy = async (
  allowed: readonly AllowedEndpoint[],
  registries: readonly RegistryAlias[] = [],
  /** Certificates the host trusts for a registry besides Node's own (PEM). */
  trust: readonly string[] = [],
): Promise<SetupProxy> => {
  // Under the host's tmp: a job's folder can exceed the 108-byte limit of a socket path.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'regreen-proxy-'));
  const socketPath = path.join(dir, 'proxy.sock');
  const refused: string[] = [];
  let refusedCount = 0;
  const isAllowed = (host: string, port: number): boolean => {
    const wanted = normalHost(host);
    const ok = allowed.some((endpoint) => endpoint.host === wanted && endpoint.port === port);
    if (!ok) {
      refusedCount += 1;
      // A command may ask for any number of names, each as long as it likes: the diagnosis keeps
      // a few, each cut short, so the host's memory and the output stay bounded.
      const shown = `${wanted.slice(0, REFUSED_NAME_CHARS)}:${port}`;
      if (refused.length < REFUSED_SHOWN && !refused.includes(shown)) refused.push(shown);
    }
    return ok;
  };
  const sockets = new Set<Socket>();
  // Computed once: what no answer of any registry may carry to the sandbox.
  const spellings = secretSpellings(registries);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const aliasPath = aliasPathOf(req.url ?? '');
    if (aliasPath !== undefined) {
      const found = aliasTarget(registries, aliasPath);
      if (found) forwardToRegistry(req, res, found.registry, found.rest, { trust, spellings });
      else res.writeHead(404).end('regreen setup proxy: no registry of this job has that alias\n');
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('regreen setup proxy: absolute URLs only\n');
      return;
    }
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    if (target.protocol !== 'http:' || !isAllowed(target.hostname, port)) {
      res
        .writeHead(403)
        .end(
          `regreen setup proxy: ${target.hostname}:${port} is not a registry this job may reach\n`,
        );
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      {
        host: normalHost(target.hostname),
        port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
      },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(`regreen setup proxy: ${error.message}\n`);
    });
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(req.url ?? '');
    if (!match?.[1] || !isAllowed(match[1], Number(match[2]))) {
      client.end(
        `HTTP/1.1 403 Forbidden\r\n\r\nregreen setup proxy: ${req.url ?? ''} is not a registry this job may reach\n`,
      );
      return;
    }
    const upstream = connect(Number(match[2]), normalHost(match[1]), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  // The sandbox's unprivileged uid must be able to connect (a socket needs write permission);
  // the folder around it is root's alone, so no other host user reaches it.
  chmodSync(socketPath, 0o666);
  return {
    socketPath,
    refused,
    refusedCount: () => refusedCount,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

const REFUSED = '[regreen] the setup proxy refused ';
const NOT_A_REGISTRY = ': not a registry this job may reach';

/** The line a set-up's output ends with when the proxy refused hosts (`count`: requests in all). */
export const refusedLine = (hosts: readonly string[], count: number): string =>
  `${REFUSED}${hosts.join(', ')}${count > hosts.length ? ` (${count} requests in all)` : ''}${NOT_A_REGISTRY}`;

/** The hosts a set-up asked for that the proxy refused, read back from its output's line. */
export const refusedHosts = (output: string): string | undefined => {
  const line = output
    .split('\n')
    .reverse()
    .find((text) => text.startsWith(REFUSED) && text.endsWith(NOT_A_REGISTRY));
  return line?.slice(REFUSED.length, line.length - NOT_A_REGISTRY.length);
};
