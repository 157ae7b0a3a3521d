/**
 * What regreen fetches the first time a tool needs it: pinned at build time
 * to the version and integrity package-lock.json records, fetched from an npm
 * registry on loopback (integrity, no signatures, as many mirrors serve it)
 * into the tools folder, reused, and refused when the registry's tarball is
 * not the locked one. Regreen's own copy at the pinned version is used as it is.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockClosure, providedPins } from '../../scripts/provided-tools.mjs';
import { readPins, providedTools, type Pins } from '../../src/workspace/setup/provided-tools.ts';
import { DYNAMIC } from '../../tools/ast/languages.ts';
import { pruneGrammar } from '../../tools/ast/grammars.ts';
import { startNpmRegistry, type NpmRegistry } from '../support/npm-registry.ts';
import { makeTempDir } from '../support/tmp.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version: string; integrity: string }>;
};

const temp = makeTempDir('regreen-provided-');
let registry: NpmRegistry;
beforeAll(async () => {
  registry = await startNpmRegistry([
    'ast-grep-lang-json-0.0.6.tgz',
    'ast-grep-lang-yaml-0.0.6.tgz',
    'ast-grep-setup-lang-0.0.6.tgz',
  ]);
});
afterAll(async () => {
  await registry.close();
  temp.cleanup();
});

const npmEnv = (url = registry.url): Record<string, string> => ({
  ...(process.env as Record<string, string>),
  npm_config_registry: url,
  npm_config_cache: path.join(temp.dir, 'npm-cache'),
  npm_config_fetch_retries: '0',
});
/** Pins as the build writes them, for any locked package (these tests fetch small grammars that also ship). */
const pinsOf = (...names: string[]): Pins =>
  new Map(names.map((name) => [name, lockClosure(lock.packages, name)] as const));
/** No copy of regreen's own: everything comes from the registry. */
const noOwn = (): [] => [];

describe('the pins the build writes', () => {
  it('pin every server and every grammar regreen does not ship, exactly as package-lock.json records them', () => {
    const { tools } = providedPins(ROOT);
    const fetched = DYNAMIC.map((language) => language.pkg).filter(
      (pkg) => !(pkg in manifest.dependencies),
    );
    expect(Object.keys(tools).sort()).toEqual(
      ['pyright', 'typescript', 'typescript-language-server', ...fetched].sort(),
    );
    for (const packages of Object.values(tools))
      for (const pkg of packages) {
        const locked = lock.packages[`node_modules/${pkg.name}`];
        expect({ version: pkg.version, integrity: pkg.integrity }, pkg.name).toEqual({
          version: locked?.version,
          integrity: locked?.integrity,
        });
        // What is fetched is never installed with regreen too.
        expect(manifest.dependencies).not.toHaveProperty([pkg.name]);
      }
    // A grammar comes with the helper its index.js requires.
    expect(tools['@ast-grep/lang-kotlin']?.map((pkg) => pkg.name)).toEqual([
      '@ast-grep/lang-kotlin',
      '@ast-grep/setup-lang',
    ]);
  });

  it('a missing pins file is no pins; a malformed one is an error', () => {
    expect(readPins(path.join(temp.dir, 'absent.json')).size).toBe(0);
    expect(() => readPins(path.join(ROOT, 'package.json'))).toThrow();
  });
});

describe('fetched on first use', () => {
  it('fetches the locked tarballs into the tools folder, keeps only what runs here, and reuses them', async () => {
    const toolsDir = path.join(temp.dir, 'tools-fetch');
    // A first use's download is told as it begins (the live line says so); a reuse tells nothing.
    const fetches: string[] = [];
    const provided = providedTools({
      toolsDir,
      env: npmEnv(),
      pins: pinsOf('@ast-grep/lang-yaml'),
      own: noOwn,
      onFetch: (what) => fetches.push(what),
    });
    expect(provided.find('@ast-grep/lang-yaml')).toBeUndefined();
    const planned = provided.where('@ast-grep/lang-yaml');
    const result = await provided.provide('@ast-grep/lang-yaml', { prune: pruneGrammar });
    expect(result).toEqual({ dir: planned });
    expect(fetches).toEqual(['@ast-grep/lang-yaml@0.0.6']);
    await provided.provide('@ast-grep/lang-yaml');
    expect(fetches).toHaveLength(1);
    const dir = planned ?? '';
    expect(dir.startsWith(path.join(toolsDir, '@ast-grep+lang-yaml@0.0.6'))).toBe(true);
    // The helper the grammar requires is installed beside it; other machines' parsers and the C sources are not kept.
    expect(existsSync(path.join(dir, '..', 'setup-lang', 'package.json'))).toBe(true);
    expect(existsSync(path.join(dir, 'src'))).toBe(false);
    expect(readdirSync(path.join(dir, 'prebuilds'))).toEqual([
      `prebuild-Linux-${process.arch === 'arm64' ? 'ARM64' : 'X64'}`,
    ]);
    expect(registry.asked).toContain('@ast-grep/lang-yaml');
    const asked = registry.asked.length;
    // Another job, another instance: found in the tools folder, the registry not asked.
    const again = providedTools({
      toolsDir,
      env: npmEnv(),
      pins: pinsOf('@ast-grep/lang-yaml'),
      own: noOwn,
    });
    expect(again.find('@ast-grep/lang-yaml')).toBe(dir);
    expect(await again.provide('@ast-grep/lang-yaml')).toEqual({ dir });
    expect(registry.asked.length).toBe(asked);
    expect(again.list()).toEqual([{ name: '@ast-grep/lang-yaml', version: '0.0.6', dir }]);
  }, 120_000);

  it("regreen's own copy at the pinned version is used as it is; another version is not", async () => {
    const toolsDir = path.join(temp.dir, 'tools-own');
    const asked = registry.asked.length;
    const own = providedTools({ toolsDir, env: npmEnv(), pins: pinsOf('@ast-grep/lang-json') });
    const shipped = path.join(ROOT, 'node_modules', '@ast-grep', 'lang-json');
    expect(await own.provide('@ast-grep/lang-json')).toEqual({ dir: shipped });
    const older = providedTools({
      toolsDir,
      env: npmEnv(),
      pins: pinsOf('@ast-grep/lang-json'),
      own: () => [{ dir: shipped, version: '0.0.1' }],
    });
    expect(older.find('@ast-grep/lang-json')).toBeUndefined();
    expect(registry.asked.length).toBe(asked);
    // Without pins (regreen run from its sources), whatever copy it has is used.
    expect(providedTools({}).find('@ast-grep/lang-json')).toBe(shipped);
  });

  it('refuses a tarball that is not the locked one, says what to do, and asks npm once', async () => {
    const toolsDir = path.join(temp.dir, 'tools-tampered');
    const [yaml, helper] = pinsOf('@ast-grep/lang-yaml').get('@ast-grep/lang-yaml') ?? [];
    const provided = providedTools({
      toolsDir,
      env: npmEnv(),
      pins: new Map([
        [
          '@ast-grep/lang-yaml',
          [{ ...yaml!, integrity: `sha512-${Buffer.alloc(64).toString('base64')}` }, helper!],
        ],
      ]),
      own: noOwn,
    });
    const result = await provided.provide('@ast-grep/lang-yaml');
    expect('reason' in result && result.reason).toMatch(
      /not the tarball regreen's lockfile recorded.*npm config get registry.*regreen doctor/,
    );
    expect(readdirSync(toolsDir)).toEqual([]);
    const asked = registry.asked.length;
    expect(await provided.provide('@ast-grep/lang-yaml')).toEqual(result);
    expect(registry.asked.length).toBe(asked);
    // A folder in the tools folder that another tarball filled is not used, and is named.
    const planted = path.join(toolsDir, '@ast-grep+lang-yaml@0.0.6');
    mkdirSync(path.join(planted, 'node_modules', '@ast-grep', 'lang-yaml'), { recursive: true });
    writeFileSync(path.join(planted, '.complete'), '{"integrity":"sha512-other"}\n');
    const honest = providedTools({
      toolsDir,
      env: npmEnv(),
      pins: pinsOf('@ast-grep/lang-yaml'),
      own: noOwn,
    });
    expect(honest.find('@ast-grep/lang-yaml')).toBeUndefined();
    const refused = await honest.provide('@ast-grep/lang-yaml');
    expect('reason' in refused && refused.reason).toMatch(
      /holds a @ast-grep\/lang-yaml@0\.0\.6 that is not the tarball regreen's lockfile recorded: remove that folder/,
    );
  }, 120_000);

  it('a registry that cannot be reached is a reason, not a crash; an unpinned package says to reinstall', async () => {
    const provided = providedTools({
      toolsDir: path.join(temp.dir, 'tools-offline'),
      env: npmEnv('http://127.0.0.1:9/'),
      pins: pinsOf('@ast-grep/lang-yaml'),
      own: noOwn,
    });
    const offline = await provided.provide('@ast-grep/lang-yaml');
    expect('reason' in offline && offline.reason).toMatch(
      /fetches @ast-grep\/lang-yaml@0\.0\.6 from the npm registry the first time.*could not/,
    );
    const unpinned = await provided.provide('pyright');
    expect('reason' in unpinned && unpinned.reason).toMatch(
      /pyright is not installed with regreen and this build of regreen pins no version of it/,
    );
  }, 120_000);
});
