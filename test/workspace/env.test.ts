import { describe, expect, it } from 'vitest';
import { isCredentialName, scrubEnv } from '../../src/workspace/sandbox/env.ts';
import { userRegistryHosts } from '../../src/workspace/setup/registries.ts';

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

  it("strips every URL's userinfo from the values that enter, unless the operator names the variable", () => {
    const env = scrubEnv(
      {
        PIP_EXTRA_INDEX_URL: 'https://TOKEN1:@pypi.example.test/simple',
        UV_EXTRA_INDEX_URL: 'https://user:TOKEN2@uv.example.test/simple',
        GOPROXY: 'https://TOKEN3@proxy.example.test,https://proxy.golang.example,direct',
        npm_config_registry: 'https://TOKEN4@npm.example.test/',
        PIP_INDEX_URL: 'https://ci:TOKEN5@private.example.test/simple',
        REGREEN_SANDBOX_CREDENTIALS: 'PIP_INDEX_URL',
        PATH: '/bin',
      },
      {},
      { STEP_URL: 'git+https://TOKEN6@github.example.test/o/r.git' },
    );
    expect(JSON.stringify(env)).not.toMatch(/TOKEN[1-46]/);
    expect(env).toMatchObject({
      PIP_EXTRA_INDEX_URL: 'https://pypi.example.test/simple',
      UV_EXTRA_INDEX_URL: 'https://uv.example.test/simple',
      GOPROXY: 'https://proxy.example.test,https://proxy.golang.example,direct',
      npm_config_registry: 'https://npm.example.test/',
      STEP_URL: 'git+https://github.example.test/o/r.git',
      // The operator's choice: this one enters as it is.
      PIP_INDEX_URL: 'https://ci:TOKEN5@private.example.test/simple',
    });
    expect(env.REGREEN_SANDBOX_CREDENTIALS).toBeUndefined();
  });

  it('keeps the variables a build needs and applies overrides last', () => {
    expect(scrubEnv({ PATH: '/bin', LANG: 'C', HOME: '/root' }, { HOME: '/private/home' })).toEqual(
      { PATH: '/bin', LANG: 'C', HOME: '/private/home' },
    );
  });

  it.each([
    ['PGPASSWORD', 'x'],
    ['GITHUB_PAT', 'x'],
    ['OPENAI_APIKEY', 'x'],
    ['DATABASE_URL', 'postgres://u:p@db/x'],
    ['SENTRY_DSN', 'https://k@sentry.example.test/1'],
    ['AZURE_STORAGE_CONNECTION_STRING', 'AccountKey=x'],
    ['MY_SERVICE_ENDPOINT', 'https://example.test/'],
  ])('passes no %s: only what a build needs', (name, value) => {
    expect(scrubEnv({ [name]: value, PATH: '/bin' }, {})).toEqual({ PATH: '/bin' });
  });

  it('passes what the step declares, but never a credential by name, nor a URL with its credentials', () => {
    expect(
      scrubEnv(
        { PATH: '/bin' },
        {},
        { NODE_ENV: 'test', API_TOKEN: 'x', PIP_INDEX_URL: 'https://u:secret@pypi.example.test/' },
      ),
    ).toEqual({ PATH: '/bin', NODE_ENV: 'test', PIP_INDEX_URL: 'https://pypi.example.test/' });
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
      'acme.example.test:443',
      'extra.example.test:443',
      'npm.corp.example.test:443',
      'pypi.corp.example.test:443',
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
    expect(hosts.sort()).toEqual([
      'default.example.test:443',
      'env.example.test:443',
      'pip.example.test:80',
    ]);
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
