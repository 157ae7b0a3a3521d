/**
 * The registry aliases of issue 61 (class 3): the sandbox is given an alias for each of the
 * operator's registry URLs, the host maps it back, and what the registry serves links to the
 * alias — whatever part of the URL held the credential.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.ts';
import { createNoneSandbox } from '../../src/workspace/sandbox/none.ts';
import { buildSandboxPolicy } from '../../src/workspace/sandbox/policy.ts';
import { makeTempDir } from '../support/tmp.ts';
import {
  aliasedRegistryVariables,
  aliasTarget,
  aliasWords,
  registryAliases,
} from '../../src/workspace/sandbox/registry-aliases.ts';
import { rewriteLinks, rewriteLocation } from '../../src/workspace/sandbox/registry-links.ts';
import { upstreamUrlOf } from '../../src/workspace/sandbox/registry-forward.ts';
import { npmrcFrom, pipConfFrom } from '../../src/workspace/setup/dependency-caches.ts';
import { npmAuthorizationFor } from '../../src/workspace/setup/npm-auth.ts';

const SECRETS = ['PaSsWoRd', 'pathtoken', 'querytoken', 'hosttoken'];
const expectNoSecret = (text: string): void => {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
};

describe('registry aliases', () => {
  it('name each operator URL by a number and one ~ per path segment, the same URL the same alias', () => {
    const aliases = registryAliases();
    const first = aliases.aliasOf('https://ci:PaSsWoRd@pkgs.example/pathtoken/simple/');
    expect(first).toBe('http://127.0.0.1:3128/regreen-registry/0/~/~/');
    expect(aliases.aliasOf('https://hosttoken.example/npm')).toBe(
      'http://127.0.0.1:3128/regreen-registry/1/~',
    );
    expect(aliases.aliasOf('https://ci:PaSsWoRd@pkgs.example/pathtoken/simple/')).toBe(first);
    expect(aliases.aliasOf('file:///srv/wheels')).toBe('file:///srv/wheels');
    expect(aliases.list()).toHaveLength(2);
  });

  it('map a request back to the operator URL: the ~s put back, a climbing path too, the query added', () => {
    const aliases = registryAliases();
    aliases.aliasOf('https://ci:PaSsWoRd@pkgs.example/pathtoken/simple/?channel=querytoken');
    const [registry] = aliases.list();
    if (!registry) throw new Error('no alias');
    const found = aliasTarget(aliases.list(), '/regreen-registry/0/~/~/cachetools/');
    expect(found?.rest).toBe('/~/~/cachetools/');
    expect(upstreamUrlOf(registry, '/~/~/cachetools/')?.href).toBe(
      'https://pkgs.example/pathtoken/simple/cachetools/?channel=querytoken',
    );
    // `../../packages/x.whl` from `/~/~/cachetools/` climbs to the operator's first segment.
    expect(upstreamUrlOf(registry, '/~/packages/x.whl?v=1')?.href).toBe(
      'https://pkgs.example/pathtoken/packages/x.whl?v=1&channel=querytoken',
    );
    expect(aliasTarget(aliases.list(), '/regreen-registry/7/~/')).toBeUndefined();
    expect(aliasTarget(aliases.list(), '/elsewhere/')).toBeUndefined();
  });

  it('rewrite every link of what the registry serves to the alias, the credential in no form left', () => {
    const aliases = registryAliases();
    aliases.aliasOf('https://ci:PaSsWoRd@hosttoken.example/pathtoken/simple/?channel=querytoken');
    const [registry] = aliases.list();
    if (!registry) throw new Error('no alias');
    const page = [
      '<a href="https://hosttoken.example/pathtoken/packages/x-1.whl?channel=querytoken#sha256=ab">x</a>',
      '<a href="/pathtoken/simple/y/">y</a>',
      '<a href="https://ci:PaSsWoRd@hosttoken.example/pathtoken/z.tar.gz">z</a>',
      "<a href='//hosttoken.example/pathtoken/w.zip'>w</a>",
      '<a href="https://hosttoken.example.other/keep">other</a>',
      '<a href="../../packages/v.whl">v</a>',
    ].join('\n');
    const out = rewriteLinks(page, registry);
    expectNoSecret(out);
    expect(out).toContain(
      'href="http://127.0.0.1:3128/regreen-registry/0/~/packages/x-1.whl#sha256=ab"',
    );
    expect(out).toContain('href="/regreen-registry/0/~/~/y/"');
    expect(out).toContain('href="http://127.0.0.1:3128/regreen-registry/0/~/z.tar.gz"');
    expect(out).toContain("href='http://127.0.0.1:3128/regreen-registry/0/~/w.zip'");
    // Another host is no link into the registry; its name loses the registry's, which is a token here.
    expect(out).toContain('href="https://127.0.0.1.other/keep"');
    expect(out).toContain('href="../../packages/v.whl"');
  });

  it('leave nothing of the URL in an answer that echoes what was asked, outside any link', () => {
    const aliases = registryAliases();
    aliases.aliasOf('https://hosttoken.example/pathtoken/simple/?channel=querytoken');
    const [registry] = aliases.list();
    if (!registry) throw new Error('no alias');
    const echoed = rewriteLinks(
      'Not found: /pathtoken/nope?channel=querytoken (GET on hosttoken.example, channel%3Dx channel=querytoken)',
      registry,
    );
    expectNoSecret(echoed);
    expect(echoed).toContain('Not found: /regreen-registry/0/~/nope');
  });

  it('rewrite a packument’s tarballs, a JSON index’s urls, a sparse cargo index’s dl and a redirect', () => {
    const aliases = registryAliases();
    aliases.aliasOf('https://npm.example/pathtoken/');
    const [registry] = aliases.list();
    if (!registry) throw new Error('no alias');
    const packument = JSON.stringify({
      versions: { '1.0.0': { dist: { tarball: 'https://npm.example/pathtoken/a/-/a-1.0.0.tgz' } } },
      files: [{ url: '/pathtoken/files/a.whl' }],
      dl: 'https://npm.example/pathtoken/api/v1/crates',
    });
    const out = rewriteLinks(packument, registry);
    expectNoSecret(out);
    expect(JSON.parse(out)).toEqual({
      versions: {
        '1.0.0': {
          dist: { tarball: 'http://127.0.0.1:3128/regreen-registry/0/~/a/-/a-1.0.0.tgz' },
        },
      },
      files: [{ url: '/regreen-registry/0/~/files/a.whl' }],
      dl: 'http://127.0.0.1:3128/regreen-registry/0/~/api/v1/crates',
    });
    const requested = new URL('https://npm.example/pathtoken/a');
    expect(rewriteLocation('/pathtoken/a/', registry, requested)).toBe(
      'http://127.0.0.1:3128/regreen-registry/0/~/a/',
    );
    expect(rewriteLocation('https://cdn.example/blob', registry, requested)).toBe(
      'https://cdn.example/blob',
    );
  });

  it('alias the installers’ variables and the files written into the sandbox’s home', () => {
    const aliases = registryAliases();
    const pipConf = pipConfFrom(
      [
        "global.index-url='https://ci:PaSsWoRd@pkgs.example/simple/'",
        "global.extra-index-url='https://hosttoken.example/pathtoken/simple/'",
        "global.trusted-host='hosttoken.example other.example'",
      ].join('\n'),
      aliases.aliasOf,
    );
    const npmrc = npmrcFrom(
      ['registry=https://npm.example/pathtoken/\n@acme:registry=https://hosttoken.example/\n'],
      aliases.aliasOf,
    );
    const variables = aliasedRegistryVariables(
      {
        UV_INDEX: 'internal=https://ci:PaSsWoRd@pkgs.example/querytoken/simple/',
        GOPROXY: 'https://hosttoken.example|direct',
        PIP_TRUSTED_HOST: 'hosttoken.example other.example',
      },
      aliases,
      'https://npm.example/pathtoken/',
    );
    for (const text of [pipConf ?? '', npmrc ?? '', JSON.stringify(variables)])
      expectNoSecret(text);
    expect(pipConf).toContain('index-url = http://127.0.0.1:3128/regreen-registry/0/~/');
    expect(pipConf).toContain('trusted-host = other.example');
    expect(npmrc).toContain('registry=http://127.0.0.1:3128/regreen-registry/2/~/');
    expect(variables).toMatchObject({
      UV_INDEX: 'internal=http://127.0.0.1:3128/regreen-registry/4/~/~/',
      GOPROXY: 'http://127.0.0.1:3128/regreen-registry/3/|direct',
      PIP_TRUSTED_HOST: 'other.example',
      YARN_NPM_REGISTRY_SERVER: 'http://127.0.0.1:3128/regreen-registry/2/~/',
      YARN_UNSAFE_HTTP_WHITELIST: '127.0.0.1',
    });
    expect(aliasWords('file:///cache,https://a.example', aliases.aliasOf)).toBe(
      'file:///cache,http://127.0.0.1:3128/regreen-registry/5/',
    );
  });
});

describe('--sandbox none', () => {
  it('names the registries by the operator’s URLs without userinfo: no setup proxy serves an alias there', async () => {
    const temp = makeTempDir('regreen-none-aliases-');
    try {
      const home = path.join(temp.dir, 'home');
      mkdirSync(home, { recursive: true });
      const policy = buildSandboxPolicy({
        workspace: path.join(temp.dir, 'workspace'),
        privateDir: path.join(temp.dir, 'private'),
        home,
        dataDir: path.join(temp.dir, 'data'),
        registryHosts: [],
        baseEnv: {
          PATH: process.env.PATH,
          HOME: home,
          PIP_INDEX_URL: 'https://ci:PaSsWoRd@pkgs.example/simple/',
          PIP_CONFIG_FILE: '/dev/null',
        },
      });
      mkdirSync(policy.workspace, { recursive: true });
      expect(policy.baseEnv.PIP_INDEX_URL).toBe('http://127.0.0.1:3128/regreen-registry/0/~/');
      const sandbox = createNoneSandbox(policy, silentLogger());
      const result = await sandbox.run({
        command: 'echo "index=$PIP_INDEX_URL"',
        cwd: policy.workspace,
        network: 'off',
        timeoutMs: 30_000,
      });
      expect(result.output).toContain('index=https://pkgs.example/simple/');
    } finally {
      temp.cleanup();
    }
  });
});

describe('the npmrc credential the host sends for a registry', () => {
  const npmrc = [
    '//npm.example/:_authToken=${ORG_TOKEN}',
    '//npm.example/team/:_authToken=team-token',
    '//basic.example/:_auth=dXNlcjpwdw==',
    '//pair.example/r/:username=ci',
    '//pair.example/r/:_password=cHc=',
  ].join('\n');
  it.each([
    ['https://npm.example/', 'Bearer org-token'],
    ['https://npm.example/team/', 'Bearer team-token'],
    ['https://npm.example/team', 'Bearer team-token'],
    ['https://basic.example/npm/', 'Basic dXNlcjpwdw=='],
    ['https://pair.example/r/', `Basic ${Buffer.from('ci:pw').toString('base64')}`],
    ['https://pair.example/', undefined],
    ['https://other.example/', undefined],
  ])('for %s is npm’s: the longest //host/path/ that begins it', (registry, wanted) => {
    expect(npmAuthorizationFor(registry, [npmrc], { ORG_TOKEN: 'org-token' })).toBe(wanted);
  });
});
