/**
 * A package manager's system-wide configuration (npm's global npmrc, pip's
 * global and site pip.conf, uv's, RubyGems', Maven's global settings) is
 * where an administrator keeps a registry's token. The sandbox's clients read
 * only what regreen writes into the sandbox's home: the operator's registries
 * and TLS trust, without credentials. Before, every such file was readable in
 * the sandbox as it is on the host (an outside attacker's finding).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmrcFrom } from '../../src/workspace/setup/dependency-caches.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { makeTempDir } from '../support/tmp.ts';
import { attackSandbox, CANARY, CASE, inSandbox, readAttack } from './support.ts';

const isRoot = process.geteuid?.() === 0;
const prefix = path.dirname(path.dirname(process.execPath));

/** System-wide client configuration files: planted with a canary where this host has none. */
const LOCATIONS = [
  '/etc/npmrc',
  path.join(prefix, 'etc', 'npmrc'),
  '/usr/local/etc/npmrc',
  '/etc/pip.conf',
  '/etc/xdg/pip/pip.conf',
  path.join(prefix, 'pip.conf'),
  '/usr/local/pip.conf',
  '/etc/uv/uv.toml',
  '/etc/gemrc',
];

describe.runIf(isRoot)("package managers' system-wide configuration in the sandbox", () => {
  const temp = makeTempDir('regreen-client-configs-');
  const planted: string[] = [];
  const madeDirs: string[] = [];
  let sandbox: Sandbox;
  beforeAll(async () => {
    // Planted before the first sandbox of this process computes its masks.
    for (const file of [...new Set(LOCATIONS)]) {
      if (existsSync(file)) continue;
      const dir = path.dirname(file);
      if (!existsSync(dir)) {
        mkdirSync(dir, { recursive: true });
        madeDirs.push(dir);
      }
      writeFileSync(file, `//registry.example.test/:_authToken=${CANARY}\n`);
      planted.push(file);
    }
    sandbox = await attackSandbox({ root: temp.dir, workspace: path.join(temp.dir, 'ws') });
  });
  afterAll(async () => {
    await sandbox.dispose();
    for (const file of planted) rmSync(file, { force: true });
    for (const dir of madeDirs.reverse()) rmSync(dir, { recursive: true, force: true });
    temp.cleanup();
  });

  it('a token planted in a system-wide client configuration file is not readable', async () => {
    expect(planted.length, 'this host left no location to plant in').toBeGreaterThan(0);
    for (const file of planted) await readAttack(sandbox, (target) => `cat ${target}`, file);
  });

  it('every file of the host in those places reads as empty (Maven’s global settings as <settings/>)', async () => {
    const existing = [...new Set(LOCATIONS)].filter((file) => existsSync(file));
    const run = await inSandbox(
      sandbox,
      existing.map((file) => `printf '%s:%s\\n' ${file} "$(wc -c < ${file})"`).join('; '),
    );
    for (const file of existing) expect(run.output).toContain(`${file}:0`);
    for (const file of ['/etc/maven/settings.xml', '/usr/share/maven/conf/settings.xml']) {
      if (!existsSync(file)) continue;
      expect((await inSandbox(sandbox, `cat ${file}`)).output.trim()).toBe('<settings/>');
    }
  });

  it("npm and pip in the sandbox read no system-wide file: each client's own answer", async () => {
    const npm = await inSandbox(sandbox, 'npm config get globalconfig');
    expect(npm.output.trim()).toBe('/dev/null');
    // pip lists every file it would load; each is absent or empty in the sandbox.
    const pip = await inSandbox(
      sandbox,
      'python3 -m pip config debug | sed -n "s/^  \\(\\/[^,]*\\), exists: True$/\\1/p" | while read -r f; do printf "%s:%s\\n" "$f" "$(wc -c < "$f")"; done',
    );
    expect(pip.exitCode, pip.output).toBe(0);
    for (const line of pip.output.trim().split('\n').filter(Boolean)) {
      if (line.startsWith(path.join(temp.dir))) continue; // regreen's own pip.conf in the sandbox's home
      expect(line).toMatch(/:0$/);
    }
  });
});

describe(`npm settings carried into the sandbox's home ${CASE}`, () => {
  it('keeps registries and TLS trust, never a token, a password or a URL’s userinfo', () => {
    const npmrc = npmrcFrom([
      [
        'registry=https://ci:TOKEN1@npm.corp.example.test/',
        '//npm.corp.example.test/:_authToken=TOKEN2',
        '_auth=TOKEN3',
        'email=me@example.test',
        '@corp:registry=https://npm.corp.example.test/scoped/',
        'cafile=/etc/ssl/certs/corp.pem',
        'strict-ssl=true',
        'init-author-name=someone',
      ].join('\n'),
      'registry=https://ignored.example.test/\ncafile=/etc/ssl/certs/ca-certificates.crt\n',
    ]);
    expect(npmrc).toBe(
      [
        '# written by regreen: your npm registries and TLS settings, without credentials',
        'registry=https://npm.corp.example.test/',
        '@corp:registry=https://npm.corp.example.test/scoped/',
        'cafile=/etc/ssl/certs/corp.pem',
        'strict-ssl=true',
        '',
      ].join('\n'),
    );
    expect(npmrcFrom(['//host/:_authToken=x\n'])).toBeUndefined();
  });
});

describe('the variables a build needs carry no credential in their values', () => {
  const temp = makeTempDir('regreen-build-values-');
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await attackSandbox({
      root: temp.dir,
      workspace: path.join(temp.dir, 'ws'),
      env: {
        GRADLE_OPTS: `-Xmx1g -Dorg.gradle.project.signingPassword=${CANARY} -Dfile.encoding=UTF-8`,
        MAVEN_OPTS: `-Drepo.password=${CANARY}`,
        JAVA_TOOL_OPTIONS: `-Dhttp.proxyPassword=${CANARY}`,
        PIP_INDEX_URL: `https://pypi.example.test/simple/?token=${CANARY}`,
        UV_INDEX: `corp=https://uv.example.test/simple?private_token=${CANARY}`,
        LC_SECRET_THING: CANARY,
        PIP_CLIENT_CERT: `/root/${CANARY}.pem`,
        UV_PUBLISH_PASSWORD: CANARY,
      },
    });
  });
  afterAll(async () => {
    await sandbox.dispose();
    temp.cleanup();
  });

  it('JVM properties, query parameters and unlisted family members that name a secret stay out', async () => {
    const output = await readAttack(sandbox, () => 'env', 'environment', {
      env: { CONTROL: CANARY },
    });
    // What a build needs of the same variables is still there.
    expect(output).toContain('-Xmx1g');
    expect(output).toContain('-Dfile.encoding=UTF-8');
    // The operator's indexes by their aliases only (issue 61): the setup proxy adds the query's token.
    expect(output).toMatch(
      /^PIP_INDEX_URL=http:\/\/127\.0\.0\.1:3128\/regreen-registry\/\d+\/~\/$/m,
    );
    expect(output).toMatch(/^UV_INDEX=corp=http:\/\/127\.0\.0\.1:3128\/regreen-registry\/\d+\/~$/m);
  });
});
