/**
 * attack61 (issue 61, class 3): the operator's registry credential reaches the sandbox. Private
 * registries carry it anywhere in the URL — the userinfo (a JWT as the password), a path segment
 * of letters only, a query parameter with a neutral name, the host name — and a heuristic that
 * cuts "token-like" parts lets through whatever it does not recognise. Here the sandbox is given
 * no form of the operator's URLs at all, only an alias the host-side setup proxy serves with the
 * credential added: pip and npm install through it from a registry that refuses them without
 * the credential, and the credential's bytes are nowhere the sandbox can read or write — its
 * variables (`env`, `/proc/self/environ`), every client configuration in its home, what the
 * install left in the workspace (`direct_url.json`, `RECORD`, `package-lock.json`) and the
 * clients' caches.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, lstatSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { startGatedRegistry, type Gate, type GatedRegistry } from '../support/gated-registry.ts';
import { startNpmRegistry, tarballOf, type NpmRegistry } from '../support/npm-registry.ts';
import { startPypiIndex, type PypiIndex } from '../support/pypi-index.ts';
import { makeTempDir } from '../support/tmp.ts';
import { attackSandbox, inSandbox } from './support.ts';

const temp = makeTempDir('regreen-attack61-');
/** The yarn 2+ `scripts/test-deps.sh` fetches for the tests' registry. */
const BERRY = '4.18.1';
let pypi: PypiIndex;
let npm: NpmRegistry;
const gates: GatedRegistry[] = [];
const sandboxes: Sandbox[] = [];

beforeAll(async () => {
  pypi = await startPypiIndex();
  npm = await startNpmRegistry(['yarn-1.22.22.tgz']);
});

afterAll(async () => {
  for (const sandbox of sandboxes) await sandbox.dispose();
  for (const gate of gates) await gate.close();
  await pypi?.close();
  await npm?.close();
  temp.cleanup();
});

const letters = (count: number): string =>
  [...randomBytes(count)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');
/** Shapes the old heuristic passed: all letters, digits then letters, dotted (a JWT). */
const TOKENS = {
  letters: `Tk${letters(30)}`,
  digitsThenLetters: `20261207${letters(24)}`,
  jwt: `eyJhbGciOi${letters(12)}.eyJzdWIi${letters(16)}.sig${letters(20)}`,
  host: `hosttoken${letters(20)}`,
};

const gated = async (inner: string, gate: Gate): Promise<GatedRegistry> => {
  const registry = await startGatedRegistry(inner, gate);
  gates.push(registry);
  return registry;
};

let made = 0;
const sandboxWith = async (
  env: Record<string, string | undefined>,
  registryHosts: string[],
  files: Record<string, string> = {},
): Promise<{ sandbox: Sandbox; root: string }> => {
  made += 1;
  const root = path.join(temp.dir, `s${made}`);
  const home = path.join(root, 'home');
  mkdirSync(home, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
    writeFileSync(path.join(home, file), text);
  }
  const sandbox = await attackSandbox({
    root,
    workspace: path.join(root, 'data', 'jobs', 'j', 'workspace'),
    env: { HOME: home, PIP_DISABLE_PIP_VERSION_CHECK: '1', ...env },
    registryHosts,
  });
  sandboxes.push(sandbox);
  return { sandbox, root };
};

/** Every file under `dir` (links not followed), as bytes. */
const filesUnder = (dir: string): { file: string; bytes: Buffer }[] => {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = path.join(dir, name);
    const info = lstatSync(file);
    if (info.isDirectory()) return filesUnder(file);
    return info.isFile() ? [{ file, bytes: readFileSync(file) }] : [];
  });
};

/** Where the sandbox's bytes are: its output, and every file its commands could write (workspace, home, tmp). */
const expectNowhere = (sandbox: Sandbox, outputs: readonly string[], token: string): void => {
  expect(outputs.filter((output) => output.includes(token))).toEqual([]);
  const holding = [sandbox.policy.workspace, sandbox.policy.privateDir]
    .flatMap(filesUnder)
    .filter(({ bytes }) => bytes.includes(token))
    .map(({ file }) => file);
  expect(holding).toEqual([]);
};

const DUMP = [
  'env',
  "tr '\\0' '\\n' </proc/self/environ",
  'cat "$HOME/.npmrc" "$HOME/.config/pip/pip.conf" "$HOME/.pip/pip.conf" "$HOME/.yarnrc.yml" 2>/dev/null',
  'find "$HOME" -maxdepth 3 -type f',
].join('; echo ----; ');

const PIP_INSTALL =
  'python3 -m venv v && v/bin/python -m pip install cachetools && v/bin/python -c "import cachetools; print(\'IMPORTED\')"';
const PIP_DUMP = `${DUMP}; echo ----; v/bin/python -m pip config debug; v/bin/python -m pip config list; cat v/lib/python3*/site-packages/cachetools-*.dist-info/RECORD v/lib/python3*/site-packages/cachetools-*.dist-info/direct_url.json 2>/dev/null; echo DUMPED`;

describe('attack61: a registry credential in the operator’s index URL', () => {
  it.each([
    [
      'the userinfo (a JWT as the password)',
      'jwt',
      (t: string): Gate => ({ kind: 'basic', user: 'ci', password: t }),
    ],
    [
      'a path segment of letters only',
      'letters',
      (t: string): Gate => ({ kind: 'path', token: t }),
    ],
    [
      'a query parameter with a neutral name',
      'digitsThenLetters',
      (t: string): Gate => ({ kind: 'query', key: 'channel', token: t }),
    ],
  ] as const)(
    'in %s: pip installs through the alias and the token is nowhere in the sandbox',
    async (_, shape, gateOf) => {
      const token = TOKENS[shape];
      const registry = await gated(pypi.url.replace(/\/simple\/$/, ''), gateOf(token));
      const { sandbox } = await sandboxWith(
        { PIP_INDEX_URL: registry.url('/simple/'), PIP_CONFIG_FILE: '/dev/null' },
        [registry.endpoint],
      );
      const install = await inSandbox(sandbox, PIP_INSTALL, {
        network: 'setup',
        timeoutMs: 240_000,
      });
      expect(install.output).toContain('IMPORTED');
      expect(install.exitCode).toBe(0);
      expect(registry.served()).toBeGreaterThan(0);
      const dump = await inSandbox(sandbox, PIP_DUMP);
      expect(dump.output).toContain('DUMPED');
      expectNowhere(sandbox, [install.output, dump.output], token);
      expect(dump.output).toContain('PIP_INDEX_URL=http://127.0.0.1:3128/regreen-registry/');
    },
    300_000,
  );

  it('over HTTPS under a CA only the operator’s bundle holds: the host reaches it as pip outside would', async () => {
    const dir = path.join(temp.dir, 'ca');
    mkdirSync(dir, { recursive: true });
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    const token = TOKENS.jwt.replace('sig', 'tls');
    const registry = await startGatedRegistry(
      pypi.url.replace(/\/simple\/$/, ''),
      { kind: 'basic', user: 'ci', password: token },
      { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') },
    );
    gates.push(registry);
    const { sandbox } = await sandboxWith(
      {
        PIP_INDEX_URL: registry.url('/simple/'),
        PIP_CONFIG_FILE: '/dev/null',
        SSL_CERT_FILE: cert,
      },
      [registry.endpoint],
    );
    const install = await inSandbox(sandbox, PIP_INSTALL, { network: 'setup', timeoutMs: 240_000 });
    expect(install.output).toContain('IMPORTED');
    const dump = await inSandbox(sandbox, `${PIP_DUMP}`);
    expect(dump.output).toContain('DUMPED');
    expectNowhere(sandbox, [install.output, dump.output], token);
  }, 300_000);

  it('in NPM_CONFIG_REGISTRY’s path: npm installs through the alias and the token is nowhere in the sandbox', async () => {
    const token = `${TOKENS.letters}npm`;
    const registry = await gated(npm.url, { kind: 'path', token });
    const { sandbox } = await sandboxWith({ NPM_CONFIG_REGISTRY: registry.url('/') }, [
      registry.endpoint,
    ]);
    writeFileSync(
      path.join(sandbox.policy.workspace, 'package.json'),
      '{"name":"w","version":"1.0.0","private":true}\n',
    );
    const install = await inSandbox(
      sandbox,
      'npm install --no-audit --no-fund yarn@1.22.22 && test -f node_modules/yarn/package.json && echo INSTALLED',
      { network: 'setup', timeoutMs: 240_000 },
    );
    expect(install.output).toContain('INSTALLED');
    const dump = await inSandbox(
      sandbox,
      `${DUMP}; echo ----; npm config ls -l; cat package-lock.json; echo DUMPED`,
    );
    expect(dump.output).toContain('DUMPED');
    expectNowhere(sandbox, [install.output, dump.output], token);
    expect(dump.output).toContain('"resolved": "http://127.0.0.1:3128/regreen-registry/');
    // The credential only reads: nothing is published or removed in the operator's name.
    const served = registry.served();
    const write = await inSandbox(
      sandbox,
      'curl -s -X PUT --data x "${NPM_CONFIG_REGISTRY}yarn"; curl -s -X DELETE "${NPM_CONFIG_REGISTRY}yarn/-rev/1"',
      { network: 'setup' },
    );
    expect(write.output).toContain('is only read (GET, HEAD)');
    expect(registry.served()).toBe(served);
  }, 300_000);

  it('as the npmrc’s _authToken for the registry: the host sends it, npm inside never holds it', async () => {
    const token = `npm_${letters(36)}`;
    const registry = await gated(npm.url, { kind: 'bearer', token });
    const nerf = registry.url('/').replace(/^http:/, '');
    const { sandbox } = await sandboxWith({ REGISTRY_TOKEN: token }, [registry.endpoint], {
      '.npmrc': `registry=${registry.url('/')}\n${nerf}:_authToken=\${REGISTRY_TOKEN}\n`,
    });
    writeFileSync(
      path.join(sandbox.policy.workspace, 'package.json'),
      '{"name":"w","version":"1.0.0","private":true}\n',
    );
    const install = await inSandbox(
      sandbox,
      'npm install --no-audit --no-fund yarn@1.22.22 && test -f node_modules/yarn/package.json && echo INSTALLED',
      { network: 'setup', timeoutMs: 240_000 },
    );
    expect(install.output).toContain('INSTALLED');
    const dump = await inSandbox(sandbox, `${DUMP}; echo ----; npm config ls -l; echo DUMPED`);
    expect(dump.output).toContain('DUMPED');
    expectNowhere(sandbox, [install.output, dump.output], token);
  }, 300_000);

  it('in NPM_CONFIG_REGISTRY’s path: yarn 2+, which reads no .npmrc, installs from it through the alias (issue 57 item 10)', async () => {
    const token = `${TOKENS.letters}berry`;
    const registry = await gated(npm.url, { kind: 'path', token });
    const { sandbox } = await sandboxWith({ NPM_CONFIG_REGISTRY: registry.url('/') }, [
      registry.endpoint,
    ]);
    const workspace = sandbox.policy.workspace;
    // A project that commits its Yarn, as yarn 2+ projects do.
    const release = path.join(workspace, '.yarn', 'releases', `yarn-${BERRY}.cjs`);
    mkdirSync(path.dirname(release), { recursive: true });
    writeFileSync(
      release,
      execFileSync(
        'tar',
        ['-xzOf', tarballOf(`yarnpkg-cli-dist-${BERRY}.tgz`), 'package/bin/yarn.js'],
        { maxBuffer: 64 * 1024 * 1024 },
      ),
    );
    writeFileSync(
      path.join(workspace, 'package.json'),
      `${JSON.stringify({ name: 'w', private: true, packageManager: `yarn@${BERRY}`, dependencies: { yarn: '1.22.22' } })}\n`,
    );
    writeFileSync(
      path.join(workspace, '.yarnrc.yml'),
      `yarnPath: .yarn/releases/yarn-${BERRY}.cjs\nnodeLinker: node-modules\n`,
    );
    const install = await inSandbox(
      sandbox,
      `YARN_ENABLE_TELEMETRY=0 YARN_ENABLE_IMMUTABLE_INSTALLS=false YARN_NPM_MINIMAL_AGE_GATE=0 node .yarn/releases/yarn-${BERRY}.cjs install && test -f node_modules/yarn/package.json && echo INSTALLED`,
      { network: 'setup', timeoutMs: 240_000 },
    );
    expect(install.output).toContain('INSTALLED');
    expect(registry.served()).toBeGreaterThan(0);
    const dump = await inSandbox(sandbox, `${DUMP}; echo ----; cat yarn.lock; echo DUMPED`);
    expect(dump.output).toContain('DUMPED');
    expectNowhere(sandbox, [install.output, dump.output], token);
  }, 300_000);

  it('in every registry variable and file the operator sets, the host name included: none reaches the sandbox', async () => {
    const { jwt, letters: pathToken, digitsThenLetters, host } = TOKENS;
    const { sandbox } = await sandboxWith(
      {
        PIP_INDEX_URL: `http://${host}.localhost:9/simple/`,
        PIP_EXTRA_INDEX_URL: `https://ci:${jwt}@pkgs.example.invalid/simple/ https://pkgs.example.invalid/${pathToken}/simple/`,
        PIP_TRUSTED_HOST: `${host}.localhost`,
        UV_INDEX_URL: `https://pkgs.example.invalid/simple/?channel=${digitsThenLetters}`,
        UV_DEFAULT_INDEX: `https://${host}.pkgs.example.invalid/simple`,
        npm_config_registry: `https://npm.example.invalid/${pathToken}`,
        GOPROXY: `https://ci:${jwt}@goproxy.example.invalid,direct`,
      },
      [],
      {
        '.npmrc': `@acme:registry=https://npm.example.invalid/${digitsThenLetters}/\n`,
        '.config/pip/pip.conf': `[global]\nextra-index-url = https://${host}.example.invalid/${pathToken}/simple/\ntrusted-host = ${host}.example.invalid\n`,
      },
    );
    // The index whose host name is the token cannot be resolved here (`*.localhost` is not, on
    // every machine): asked for anyway, the proxy's answer must not name it either.
    const dump = await inSandbox(
      sandbox,
      `${DUMP}; echo ----; curl -s "$PIP_INDEX_URL"; echo DUMPED`,
      { network: 'setup' },
    );
    expect(dump.output).toContain('DUMPED');
    for (const token of [jwt, pathToken, digitsThenLetters, host])
      expectNowhere(sandbox, [dump.output], token);
    expect(dump.output).toMatch(/regreen setup proxy: registry \d+ could not be reached/);
    // Each package manager is given the operator's registry: yarn 2+ too, which reads no .npmrc.
    expect(dump.output).toMatch(
      /^YARN_NPM_REGISTRY_SERVER=http:\/\/127\.0\.0\.1:3128\/regreen-registry\/\d+\/~$/m,
    );
    expect(dump.output).toMatch(/^YARN_UNSAFE_HTTP_WHITELIST=127\.0\.0\.1$/m);
    expect(dump.output).toMatch(
      /^UV_DEFAULT_INDEX=http:\/\/127\.0\.0\.1:3128\/regreen-registry\/\d+\/~$/m,
    );
  }, 120_000);
});
