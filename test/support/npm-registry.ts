/**
 * An npm registry on loopback that speaks npm's wire format: a packument per
 * package (`GET /pnpm`, `GET /@scope%2fname`) and its tarballs, served from
 * the tarballs `scripts/test-deps.sh` fetched once into `test/.registry/npm`.
 * Like many company mirrors it carries integrity hashes and no signatures.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const NPM_TARBALLS = path.resolve(import.meta.dirname, '..', '.registry', 'npm');

/** The tarball of a package the tests serve; a clear error when the set-up did not fetch it. */
export const tarballOf = (file: string): string => {
  const full = path.join(NPM_TARBALLS, file);
  if (!existsSync(full))
    throw new Error(
      `${full} is missing: run scripts/test-deps.sh (it fetches the tests' registry)`,
    );
  return full;
};

export interface NpmRegistry {
  readonly url: string;
  /** Packument requests by package name, for assertions. */
  readonly asked: string[];
  close(): Promise<void>;
}

interface Version {
  name: string;
  version: string;
  bin?: unknown;
  dependencies?: unknown;
  dist: { tarball: string; integrity: string; shasum: string };
}

export const startNpmRegistry = async (
  tarballs: readonly string[] = readdirSync(NPM_TARBALLS).filter((f) => f.endsWith('.tgz')),
): Promise<NpmRegistry> => {
  const packages = new Map<string, Map<string, { version: Version; file: string }>>();
  const asked: string[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    const tarball = /^\/(.+)\/-\/([^/]+\.tgz)$/.exec(url);
    if (tarball) {
      const entry = [...(packages.get(tarball[1] ?? '')?.values() ?? [])].find(
        (v) => path.basename(v.version.dist.tarball) === tarball[2],
      );
      if (!entry) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void res.end(readFileSync(entry.file));
    }
    const name = url.slice(1);
    asked.push(name);
    const versions = packages.get(name);
    if (!versions) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return void res.end('{"error":"Not found"}');
    }
    const all = [...versions.values()].map((v) => v.version);
    const body = {
      name,
      'dist-tags': { latest: all.at(-1)?.version },
      versions: Object.fromEntries(
        all.map((v) => [
          v.version,
          { ...v, dist: { ...v.dist, tarball: `${base}${v.dist.tarball}` } },
        ]),
      ),
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const file of tarballs) {
    const full = tarballOf(file);
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', full, 'package/package.json'], { encoding: 'utf8' }),
    ) as { name: string; version: string; bin?: unknown; dependencies?: unknown };
    const bytes = readFileSync(full);
    const version: Version = {
      name: manifest.name,
      version: manifest.version,
      ...(manifest.bin !== undefined ? { bin: manifest.bin } : {}),
      ...(manifest.dependencies !== undefined ? { dependencies: manifest.dependencies } : {}),
      dist: {
        tarball: `/${manifest.name}/-/${path.basename(full)}`,
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
      },
    };
    const known =
      packages.get(manifest.name) ?? new Map<string, { version: Version; file: string }>();
    known.set(manifest.version, { version, file: full });
    packages.set(manifest.name, known);
  }
  return {
    url: `${base}/`,
    asked,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
