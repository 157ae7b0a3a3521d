/**
 * A Python package index on loopback that speaks PEP 503 (the "simple"
 * repository API pip uses): `/simple/` lists the projects, `/simple/<name>/`
 * links each distribution with its sha256, and the files are served from
 * `test/.registry/pypi`, the wheels `scripts/test-deps.sh` downloaded once
 * through the machine's ordinary pip configuration. With it, a test's pip
 * needs nothing of this machine's pip settings.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const PYPI_FILES = path.resolve(import.meta.dirname, '..', '.registry', 'pypi');

/** PEP 503's normalised project name. */
export const normalise = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');

/** The project a distribution file belongs to: `pytest-8.3.5-py3-none-any.whl` → `pytest`. */
const projectOf = (file: string): string | undefined =>
  /^(.+?)-\d[^-]*(?:-\d[^-]*)?-[^-]+-[^-]+-[^-]+\.whl$/.exec(file)?.[1] ??
  /^(.+?)-\d[^-]*\.(?:tar\.gz|zip)$/.exec(file)?.[1];

export interface PypiIndex {
  /** The index's simple URL, as `PIP_INDEX_URL` takes it. */
  readonly url: string;
  /** Projects asked for, normalised, for assertions. */
  readonly asked: string[];
  close(): Promise<void>;
}

const escape = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Starts the index; a clear error when the set-up did not download its files. */
export const startPypiIndex = async (dir = PYPI_FILES): Promise<PypiIndex> => {
  const files = existsSync(dir) ? readdirSync(dir) : [];
  const projects = new Map<string, { file: string; sha256: string }[]>();
  for (const file of files) {
    const project = projectOf(file);
    if (!project) continue;
    const sha256 = createHash('sha256')
      .update(readFileSync(path.join(dir, file)))
      .digest('hex');
    const key = normalise(project);
    projects.set(key, [...(projects.get(key) ?? []), { file, sha256 }]);
  }
  if (projects.size === 0)
    throw new Error(
      `${dir} holds no wheels: run scripts/test-deps.sh (it fetches the tests' index)`,
    );
  const asked: string[] = [];
  const page = (title: string, links: string[]): string =>
    `<!DOCTYPE html>\n<html><head><meta name="pypi:repository-version" content="1.0"><title>${escape(title)}</title></head><body>\n${links.join('<br>\n')}\n</body></html>\n`;
  const server: Server = createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    if (url === '/simple/' || url === '/simple') {
      const links = [...projects.keys()].sort().map((p) => `<a href="/simple/${p}/">${p}</a>`);
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(page('index', links));
    }
    const listing = /^\/simple\/([^/]+)\/?$/.exec(url);
    if (listing) {
      const key = normalise(listing[1] ?? '');
      asked.push(key);
      const dists = projects.get(key);
      if (!dists) return void res.writeHead(404).end();
      const links = dists.map(
        (d) =>
          `<a href="/files/${encodeURIComponent(d.file)}#sha256=${d.sha256}">${escape(d.file)}</a>`,
      );
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(page(key, links));
    }
    const file = /^\/files\/([^/]+)$/.exec(url)?.[1];
    if (file && files.includes(file)) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void res.end(readFileSync(path.join(dir, file)));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/simple/`,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/**
 * The environment under which pip (regreen's and the sandbox's) uses this index and nothing of the
 * machine's pip settings: no configuration file, no find-links or extra index of the caller's.
 */
export const pipEnvOf = (index: PypiIndex): Record<string, string | undefined> => ({
  PIP_INDEX_URL: index.url,
  PIP_CONFIG_FILE: '/dev/null',
  PIP_EXTRA_INDEX_URL: undefined,
  PIP_FIND_LINKS: undefined,
  PIP_NO_INDEX: undefined,
});
