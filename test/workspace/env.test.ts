import { describe, expect, it } from 'vitest';
import { isCredentialName, scrubEnv } from '../../src/workspace/env.ts';
import { userRegistryHosts } from '../../src/workspace/registries.ts';

describe('scrubEnv', () => {
  it.each([
    'GITHUB_TOKEN',
    'ANTHROPIC_API_KEY',
    'MY_SERVICE_TOKEN',
    'DB_PASSWORD',
    'STRIPE_SECRET',
    'aws_secret_access_key',
    'NPM_TOKEN',
  ])('drops %s', (name) => {
    expect(isCredentialName(name)).toBe(true);
    expect(scrubEnv({ [name]: 'x', PATH: '/bin' }, {})).toEqual({ PATH: '/bin' });
  });

  it("drops regreen's own npm invocation but keeps the user's registry", () => {
    const env = scrubEnv(
      {
        npm_config_local_prefix: '/regreen',
        npm_lifecycle_event: 'test',
        INIT_CWD: '/x',
        npm_config_registry: 'https://registry.example.test/',
      },
      {},
    );
    expect(env).toEqual({ npm_config_registry: 'https://registry.example.test/' });
  });

  it('keeps ordinary variables and applies overrides last', () => {
    expect(scrubEnv({ PATH: '/bin', LANG: 'C', HOME: '/root' }, { HOME: '/private/home' })).toEqual(
      { PATH: '/bin', LANG: 'C', HOME: '/private/home' },
    );
  });
});

describe('userRegistryHosts', () => {
  const files: Record<string, string> = {
    '/home/u/.npmrc':
      'registry=https://npm.corp.example.test/\n@acme:registry=https://acme.example.test/npm/\n//npm.corp.example.test/:_authToken=secret\n',
    '/etc/pip.conf':
      '[global]\nindex-url = https://pypi.corp.example.test/simple\nextra-index-url =\n    https://extra.example.test/simple\n    file:///opt/wheels\n',
  };
  const readText = (file: string): string | undefined => files[file];

  it("reads the user's npm and pip configuration, never a token", () => {
    const hosts = userRegistryHosts({ home: '/home/u', env: {}, readText });
    expect(hosts.sort()).toEqual([
      'acme.example.test',
      'extra.example.test',
      'npm.corp.example.test',
      'pypi.corp.example.test',
    ]);
  });

  it('adds what the clients report and what the environment names', () => {
    const hosts = userRegistryHosts({
      home: '/nowhere',
      env: {
        npm_config_registry: 'https://env.example.test/',
        PIP_INDEX_URL: 'http://pip.example.test/simple',
      },
      readText: () => undefined,
      effectiveUrls: ['https://default.example.test/'],
    });
    expect(hosts.sort()).toEqual(['default.example.test', 'env.example.test', 'pip.example.test']);
  });

  it('ignores non-http URLs', () => {
    expect(
      userRegistryHosts({
        home: '/x',
        env: { npm_config_registry: 'file:///local' },
        readText: () => undefined,
      }),
    ).toEqual([]);
  });
});
