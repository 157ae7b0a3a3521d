/**
 * pnpm and Yarn as the project's CI has them, installed from an npm registry
 * on loopback that, like many mirrors, carries integrity hashes and no
 * signatures (which corepack refuses): the version the manifest pins, its
 * hash checked, a launcher per program.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installPackageManager,
  parsePin,
  wantedPackageManager,
} from '../../src/workspace/setup/package-managers.ts';
import { startNpmRegistry, tarballOf, type NpmRegistry } from '../support/npm-registry.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-package-managers-');
let registry: NpmRegistry;
beforeAll(async () => {
  registry = await startNpmRegistry(['pnpm-9.15.9.tgz', 'yarn-1.22.22.tgz']);
});
afterAll(async () => {
  await registry.close();
  temp.cleanup();
});

let n = 0;
const project = (files: Record<string, string>): string => {
  const dir = path.join(temp.dir, `p${(n += 1)}`);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  return dir;
};
const nothingOnPath = (): boolean => false;
const PNPM_SHA512 = (): string =>
  createHash('sha512')
    .update(readFileSync(tarballOf('pnpm-9.15.9.tgz')))
    .digest('hex');
const npmEnv = (): Record<string, string> => ({
  ...(process.env as Record<string, string>),
  npm_config_registry: registry.url,
  npm_config_cache: path.join(temp.dir, 'npm-cache'),
});

describe('the package manager CI has', () => {
  it('the pin (with its hash) first, then the workflow’s pnpm/action-setup, then the lockfile’s major', () => {
    expect(parsePin('pnpm@9.1.0+sha512.abc123')).toEqual({
      name: 'pnpm',
      version: '9.1.0',
      hash: { algorithm: 'sha512', hex: 'abc123' },
    });
    expect(parsePin('npm@10.0.0')).toBeUndefined();
    expect(parsePin('pnpm@latest')).toBeUndefined();
    const pinned = project({
      'package.json': '{"packageManager":"yarn@4.2.0"}',
      'yarn.lock': '',
    });
    expect(wantedPackageManager(pinned, nothingOnPath)).toMatchObject({
      name: 'yarn',
      version: '4.2.0',
    });
    const lockOnly = project({
      'package.json': '{}',
      'pnpm-lock.yaml': "lockfileVersion: '6.0'\n",
    });
    expect(wantedPackageManager(lockOnly, nothingOnPath)).toMatchObject({
      name: 'pnpm',
      version: '8',
    });
    // A machine that has pnpm uses its own when nothing pins a version.
    expect(wantedPackageManager(lockOnly, () => true)).toBeUndefined();
    expect(
      wantedPackageManager(lockOnly, () => true, {
        name: 'pnpm',
        version: '9',
        step: 'Setup pnpm',
      }),
    ).toMatchObject({ version: '9', from: 'Setup pnpm' });
    expect(wantedPackageManager(project({ 'yarn.lock': '' }), nothingOnPath)).toMatchObject({
      name: 'yarn',
      version: '1',
    });
    expect(
      wantedPackageManager(project({ 'package-lock.json': '{}' }), nothingOnPath),
    ).toBeUndefined();
  });

  it('a package.json that links out of the workspace is not read on the host', () => {
    const linked = project({ 'yarn.lock': '' });
    const outside = path.join(temp.dir, 'outside.json');
    writeFileSync(outside, '{"packageManager":"pnpm@9.15.9"}');
    symlinkSync(outside, path.join(linked, 'package.json'));
    // The link is ignored: the lockfile decides, as if there were no manifest.
    expect(wantedPackageManager(linked, nothingOnPath)).toMatchObject({ name: 'yarn' });
  });

  it('installs the pinned pnpm from a registry without signatures, its hash checked, and reuses it', async () => {
    const toolsDir = path.join(temp.dir, 'tools-pinned');
    const installed = await installPackageManager({
      wanted: {
        name: 'pnpm',
        version: '9.15.9',
        hash: { algorithm: 'sha512', hex: PNPM_SHA512() },
        from: 'test',
      },
      toolsDir,
      env: npmEnv(),
    });
    expect(installed.version).toBe('9.15.9');
    expect(installed.root.startsWith(toolsDir)).toBe(true);
    expect(
      execFileSync(path.join(installed.bin, 'pnpm'), ['--version'], { encoding: 'utf8' }).trim(),
    ).toBe('9.15.9');
    expect(registry.asked).toContain('pnpm');
    const asked = registry.asked.length;
    const again = await installPackageManager({
      wanted: { name: 'pnpm', version: '9.15.9', from: 'test' },
      toolsDir,
      env: npmEnv(),
    });
    expect(again.bin).toBe(installed.bin);
    expect(registry.asked.length).toBe(asked);
    // A version installed before answers a later pin by the hashes it recorded: a wrong one is refused.
    await expect(
      installPackageManager({
        wanted: {
          name: 'pnpm',
          version: '9.15.9',
          hash: { algorithm: 'sha256', hex: 'f'.repeat(64) },
          from: 'test',
        },
        toolsDir,
        env: npmEnv(),
      }),
    ).rejects.toThrow(/does not match the sha256/);
    const sha256 = createHash('sha256')
      .update(readFileSync(tarballOf('pnpm-9.15.9.tgz')))
      .digest('hex');
    const pinnedAgain = await installPackageManager({
      wanted: {
        name: 'pnpm',
        version: '9.15.9',
        hash: { algorithm: 'sha256', hex: sha256 },
        from: 'test',
      },
      toolsDir,
      env: npmEnv(),
    });
    expect(pinnedAgain.bin).toBe(installed.bin);
  }, 120_000);

  it('a range resolves to the highest release the registry has; Yarn 1 gets its launchers', async () => {
    const toolsDir = path.join(temp.dir, 'tools-range');
    const pnpm = await installPackageManager({
      wanted: { name: 'pnpm', version: '9', from: 'test' },
      toolsDir,
      env: npmEnv(),
    });
    expect(pnpm.version).toBe('9.15.9');
    const yarn = await installPackageManager({
      wanted: { name: 'yarn', version: '1', from: 'test' },
      toolsDir,
      env: npmEnv(),
    });
    expect(
      execFileSync(path.join(yarn.bin, 'yarn'), ['--version'], { encoding: 'utf8' }).trim(),
    ).toBe('1.22.22');
  }, 120_000);

  it('refuses a package whose hash is not the one the manifest pins, and leaves nothing behind', async () => {
    const toolsDir = path.join(temp.dir, 'tools-tampered');
    await expect(
      installPackageManager({
        wanted: {
          name: 'pnpm',
          version: '9.15.9',
          hash: { algorithm: 'sha512', hex: '0'.repeat(128) },
          from: 'test',
        },
        toolsDir,
        env: npmEnv(),
      }),
    ).rejects.toThrow(/does not match the sha512/);
    expect(execFileSync('ls', ['-A', toolsDir], { encoding: 'utf8' }).trim()).toBe('');
  }, 120_000);
});
