import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../../fixtures/build.ts';
import { provideManager } from '../../src/job/stages/package-manager.ts';
import { buildSandboxPolicy } from '../../src/workspace/sandbox/policy.ts';
import { registryHostsOf } from '../../src/workspace/setup/registries.ts';
import { startNpmRegistry, type NpmRegistry } from '../support/npm-registry.ts';
import { makeTempDir } from '../support/tmp.ts';

/**
 * ATTACK (held): make the repository widen the setup's allow-list through
 * the Yarn regreen provides, or have the host-side `yarn config get`
 * read the repository's files or run its code. The repository plants every
 * file Yarn 1 and Yarn 2+ read (`.yarnrc` with `registry` and `yarn-path`,
 * `.yarnrc.yml` with `npmRegistryServer`, `yarnPath` and a plugin, `.npmrc`)
 * and pins the Yarn the tests' registry has. The host asks Yarn in
 * regreen's tools folder with the operator's environment: none of it is
 * read, none of it runs, and only the operator's registry joins the list.
 */
describe('the registry a provided Yarn answers with', () => {
  const temp = makeTempDir('regreen-h-yarnreg-');
  const marker = path.join(temp.dir, 'RAN-ON-HOST');
  let registry: NpmRegistry;
  beforeAll(async () => {
    registry = await startNpmRegistry(['yarn-1.22.22.tgz']);
  });
  afterAll(async () => {
    await registry.close();
    temp.cleanup();
  });

  it('is the operator’s, never the repository’s, and no repository code runs on the host', async () => {
    const evil = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'pwned');\n`;
    const repo = makeRepo(path.join(temp.dir, 'repo'), {
      'package.json': `${JSON.stringify({ name: 'x', version: '1.0.0', packageManager: 'yarn@1.22.22' })}\n`,
      'yarn.lock': '# yarn lockfile v1\n',
      '.yarnrc': 'registry "http://evil-yarnrc.invalid:4444/"\nyarn-path "./evil.js"\n',
      '.npmrc': 'registry=http://evil-npmrc.invalid:5555/\n',
      '.yarnrc.yml':
        'npmRegistryServer: "http://evil-berry.invalid:6666"\nyarnPath: ./evil.js\nplugins:\n  - path: ./evil.js\n',
      'evil.js': evil,
      '.yarn/releases/evil.cjs': evil,
    });
    const home = path.join(temp.dir, 'home');
    mkdirSync(home, { recursive: true });
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      npm_config_registry: registry.url,
      npm_config_cache: path.join(temp.dir, 'npm-cache'),
      REGREEN_TOOLS_DIR: path.join(temp.dir, 'tools'),
    };
    const { manager, note } = await provideManager(repo, env);
    expect(manager, note).toBeDefined();
    expect(manager?.registries.join(' ')).not.toMatch(/evil/);
    expect(existsSync(marker)).toBe(false);
    const policy = buildSandboxPolicy({
      workspace: repo,
      privateDir: path.join(temp.dir, 'private'),
      home,
      dataDir: path.join(temp.dir, 'data'),
      registryHosts: [],
      baseEnv: env,
      tools: manager ? [manager] : [],
    });
    const hosts = await policy.registryHosts;
    expect(hosts.join(' ')).not.toMatch(/evil/);
    // The operator set npm's registry and no Yarn one: Yarn's own default is not opened.
    expect(hosts).toEqual([]);

    // And from inside the repository's folder (regreen's cwd when run there), the same answer.
    const again = await provideManager(repo, { ...env, PWD: repo });
    expect(again.manager?.registries.join(' ')).not.toMatch(/evil/);
    expect(existsSync(marker)).toBe(false);
  }, 300_000);

  /**
   * Was PARTIAL: the repository cannot name the host, but it decided whether
   * Yarn's built-in default joined the list: an operator who points npm at a
   * mirror and configures no Yarn got Yarn's public registry opened to the
   * set-up of any repository that pins Yarn. As with pip, Yarn's own default
   * now counts only when the operator set no npm registry.
   */
  it('does not add Yarn’s public default where the operator configured only an npm mirror', async () => {
    const home = path.join(temp.dir, 'mirror-home');
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(home, '.npmrc'), `registry=${registry.url}\n`);
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      npm_config_cache: path.join(temp.dir, 'npm-cache-2'),
      REGREEN_TOOLS_DIR: path.join(temp.dir, 'tools'),
    };
    const operators = await registryHostsOf(env);
    expect(operators).toContain(new URL(registry.url).host);
    const repo = makeRepo(path.join(temp.dir, 'pins-yarn'), {
      'package.json': `${JSON.stringify({ name: 'y', version: '1.0.0', packageManager: 'yarn@1.22.22' })}\n`,
    });
    const { manager } = await provideManager(repo, env);
    const policy = buildSandboxPolicy({
      workspace: repo,
      privateDir: path.join(temp.dir, 'private-2'),
      home,
      dataDir: path.join(temp.dir, 'data'),
      registryHosts: operators,
      baseEnv: env,
      tools: manager ? [manager] : [],
    });
    const added = (await policy.registryHosts).filter((host) => !operators.includes(host));
    // What the operator might expect: a repository's choice adds no host they did not configure.
    expect(added, 'hosts the repository’s pin added to the set-up’s allow-list').toEqual([]);
  }, 300_000);
});
