/**
 * A RubyGems source on loopback, as `gem` and Bundler read one: the gems are
 * built by RubyGems itself from the sources a test gives (`gem build`), the
 * index by `gem generate_index` (`specs.4.8.gz`, `quick/Marshal.4.8/…`), and
 * the folder is served as files. Bundler finds no compact index there and
 * reads the full one, as it does from a plain mirror.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface GemSpec {
  readonly name: string;
  readonly version: string;
  /** The gem's files, by path under its root (`lib/<name>.rb`). */
  readonly files: Readonly<Record<string, string | Buffer>>;
}

export interface GemSource {
  /** The source's URL, as a Gemfile's `source` and a gemrc's `:sources:` take it. */
  readonly url: string;
  /** Paths asked for, for assertions. */
  readonly asked: string[];
  close(): Promise<void>;
}

const gemspecOf = (gem: GemSpec): string =>
  [
    'Gem::Specification.new do |s|',
    `  s.name = ${JSON.stringify(gem.name)}`,
    `  s.version = ${JSON.stringify(gem.version)}`,
    `  s.summary = ${JSON.stringify(`${gem.name}, built for a test`)}`,
    "  s.authors = ['regreen tests']",
    "  s.license = 'MIT'",
    `  s.files = ${JSON.stringify(Object.keys(gem.files))}`,
    'end',
    '',
  ].join('\n');

/** Every file under `dir`, by its path relative to it. */
const filesUnder = (dir: string, prefix = ''): string[] =>
  readdirSync(path.join(dir, prefix)).flatMap((name) => {
    const relative = path.posix.join(prefix, name);
    return statSync(path.join(dir, relative)).isDirectory()
      ? filesUnder(dir, relative)
      : [relative];
  });

/**
 * A gem this machine's Ruby already has (a bundled gem such as minitest),
 * packed again from its installed files, so the source serves the real gem.
 */
export const installedGem = (name: string): GemSpec => {
  const [version = '', dir = ''] = execFileSync(
    'ruby',
    [
      '-e',
      'spec = Gem::Specification.find_by_name(ARGV[0]); puts spec.version, spec.full_gem_path',
      name,
    ],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n');
  const files = Object.fromEntries(
    filesUnder(dir).map((file) => [file, readFileSync(path.join(dir, file))]),
  );
  return { name, version, files };
};

/** Builds the gems and their index under `root`, then serves them. */
export const startGemSource = async (
  root: string,
  gems: readonly GemSpec[],
): Promise<GemSource> => {
  const index = path.join(root, 'index');
  mkdirSync(path.join(index, 'gems'), { recursive: true });
  for (const gem of gems) {
    const src = path.join(root, 'src', gem.name);
    for (const [file, text] of Object.entries(gem.files)) {
      mkdirSync(path.dirname(path.join(src, file)), { recursive: true });
      writeFileSync(path.join(src, file), text);
    }
    writeFileSync(path.join(src, `${gem.name}.gemspec`), gemspecOf(gem));
    const built = `${gem.name}-${gem.version}.gem`;
    execFileSync(
      'gem',
      ['build', `${gem.name}.gemspec`, '--output', path.join(index, 'gems', built)],
      {
        cwd: src,
        stdio: 'pipe',
      },
    );
  }
  execFileSync('gem', ['generate_index', '--directory', index], { stdio: 'pipe' });
  const files = new Set(filesUnder(index));
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    const file = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/').replace(/^\/+/, '');
    asked.push(file);
    if (!files.has(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(readFileSync(path.join(index, file)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** A gemrc naming only this source, as an operator's `~/.gemrc` would (`GEMRC` points RubyGems at it). */
export const gemrcOf = (dir: string, source: GemSource): string => {
  const file = path.join(dir, 'gemrc');
  writeFileSync(file, `---\n:sources:\n- ${source.url}\n`);
  return file;
};
