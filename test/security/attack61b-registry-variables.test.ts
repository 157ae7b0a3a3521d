/**
 * attack61b (issue 61, class 3, second round): operator variables and npmrc values holding a
 * registry URL reached the sandbox as written — `GOSUMDB` with a token in its URL's path, a token
 * as a host label in `GONOSUMDB`/`GOPRIVATE`, a quoted `registry="https://…/TOKEN/"` in the
 * operator's `.npmrc` (npm's ini parser removes the quotes; regreen wrote it through as it
 * was). Every such value is now aliased as its client would read it, or left out.
 */
import { describe, expect, it } from 'vitest';
import { scrubEnv } from '../../src/workspace/sandbox/env.ts';
import {
  aliasedRegistryVariables,
  registryAliases,
} from '../../src/workspace/sandbox/registry-aliases.ts';
import { iniValue, npmrcFrom } from '../../src/workspace/setup/dependency-caches.ts';

const TOKEN = 'Tk1x9secretQ';

const sandboxEnvOf = (env: Record<string, string>): Record<string, string> => {
  const aliases = registryAliases();
  return scrubEnv({ ...env, ...aliasedRegistryVariables(env, aliases, undefined) }, {});
};

describe('Go’s variables (3i, 3j)', () => {
  it('GOSUMDB’s URL is aliased; a GONOSUMDB/GOPRIVATE pattern holding a piece of it left out', () => {
    const sandbox = sandboxEnvOf({
      PATH: '/usr/bin',
      GOSUMDB: `sum.golang.org https://sumdb.corp.example/${TOKEN}/`,
      GONOSUMDB: `${TOKEN.toLowerCase()}.pkgs.example,public.example/*`,
      GOPRIVATE: `sumdb.corp.example/*,${TOKEN}.pkgs.example`,
    });
    expect(JSON.stringify(sandbox).toLowerCase()).not.toContain(TOKEN.toLowerCase());
    expect(sandbox.GOSUMDB).toBe('sum.golang.org http://127.0.0.1:3128/regreen-registry/0/~/');
    expect(sandbox.GONOSUMDB).toBe('public.example/*');
    expect(sandbox.GOPRIVATE ?? '').toBe('');
  });

  it('a GOSUMDB whose URL is not one is left out, not passed', () => {
    const sandbox = sandboxEnvOf({
      PATH: '/usr/bin',
      GOSUMDB: `sum.golang.org "https://sumdb.corp.example/${TOKEN}/"`,
    });
    expect(JSON.stringify(sandbox)).not.toContain(TOKEN);
  });

  it('GOSUMDB=off and a plain name pass as they are', () => {
    expect(sandboxEnvOf({ GOSUMDB: 'off' }).GOSUMDB).toBe('off');
    expect(sandboxEnvOf({ GOSUMDB: 'sum.golang.org' }).GOSUMDB).toBe('sum.golang.org');
  });

  it('a registry variable holding a URL that does not parse is left out (fail closed)', () => {
    const sandbox = sandboxEnvOf({
      PATH: '/usr/bin',
      PIP_INDEX_URL: `"https://pypi.corp.example/${TOKEN}/simple/"`,
      GOPROXY: `https://[bad/${TOKEN}/,direct`,
    });
    expect(JSON.stringify(sandbox)).not.toContain(TOKEN);
    expect(sandbox.GOPROXY).toBe(',direct');
  });
});

describe('the operator’s .npmrc, read as npm reads it (3k)', () => {
  it.each([
    [`registry="https://npm.corp.example/${TOKEN}/"`],
    [`registry='https://npm.corp.example/${TOKEN}/'`],
    [`@c:registry = "https://npm.corp.example/${TOKEN}/"`],
    [`"registry"=https://npm.corp.example/${TOKEN}/ ; a comment`],
    [`registry=https://npm.corp.example/${TOKEN}/#frag`],
  ])('%s: aliased', (line) => {
    const aliases = registryAliases();
    const npmrc = npmrcFrom([`${line}\n`], aliases.aliasOf) ?? '';
    expect(npmrc).not.toContain(TOKEN);
    expect(npmrc).toMatch(/registry=http:\/\/127\.0\.0\.1:3128\/regreen-registry\/0\/~\//);
  });

  it('a registry that is no URL is left out, never written as it is', () => {
    const aliases = registryAliases();
    const npmrc = npmrcFrom([`registry="https://npm.corp.example/${TOKEN}/\n`], aliases.aliasOf);
    expect(npmrc ?? '').not.toContain(TOKEN);
  });

  it('unquotes as npm’s ini does', () => {
    expect(iniValue(' "a b" ')).toBe('a b');
    expect(iniValue(`'x'`)).toBe('x');
    expect(iniValue('a\\;b ; c')).toBe('a;b');
    expect(iniValue('"a\\q"')).toBe('"a\\q"');
  });
});
