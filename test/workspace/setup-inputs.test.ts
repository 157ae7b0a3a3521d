import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setupInputs } from '../../src/workspace/setup-inputs.ts';
import { makeTempDir } from '../support/tmp.ts';

const tree = (root: string, files: Record<string, string>): string[] => {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  return Object.keys(files);
};

describe('setupInputs: the files that decide what a setup makes', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  it('names manifests, lockfiles, install patches, .gitignore and anything under node_modules', () => {
    const root = path.join(temp.dir, 'manifests');
    const known = tree(root, { 'package.json': '{}', 'src/a.js': '' });
    const isInput = setupInputs(root, 'npm ci', known);
    for (const file of [
      'package.json',
      'packages/ui/package.json',
      'package-lock.json',
      'pnpm-lock.yaml',
      'yarn.lock',
      '.npmrc',
      '.pnpmfile.cjs',
      'requirements-dev.txt',
      'go.sum',
      'patches/left-pad+1.3.0.patch',
      '.yarn/patches/x.patch',
      '.gitignore',
      'sub/.gitignore',
      'node_modules/limit/index.js',
    ])
      expect(isInput(file), file).toBe(true);
    for (const file of ['src/a.js', 'README.md', 'test/a.test.js', 'src/node_modules.js'])
      expect(isInput(file), file).toBe(false);
  });

  it('names the files the setup command names, quoted or after ./, but not words that are no known file', () => {
    const root = path.join(temp.dir, 'command');
    const known = tree(root, {
      'install.mjs': '',
      'scripts/setup.sh': '',
      'scripts/other.sh': '',
      'src/a.js': '',
    });
    const isInput = setupInputs(
      root,
      'node install.mjs && bash "./scripts/setup.sh" --fast',
      known,
    );
    expect(isInput('install.mjs')).toBe(true);
    expect(isInput('scripts/setup.sh')).toBe(true);
    expect(isInput('scripts/other.sh')).toBe(false);
    expect(isInput('src/a.js')).toBe(false);
  });

  it("names the files a local package's install scripts name, from that package's folder", () => {
    const root = path.join(temp.dir, 'lifecycle');
    const known = tree(root, {
      'package.json': JSON.stringify({
        scripts: { postinstall: 'node scripts/gen.mjs', test: 'node test/run.mjs' },
      }),
      'packages/ui/package.json': JSON.stringify({ scripts: { prepare: 'node ./build.mjs' } }),
      'packages/ui/build.mjs': '',
      'scripts/gen.mjs': '',
      'test/run.mjs': '',
      'broken/package.json': '{ not json',
    });
    const isInput = setupInputs(root, 'npm ci', known);
    expect(isInput('scripts/gen.mjs')).toBe(true);
    expect(isInput('packages/ui/build.mjs')).toBe(true);
    // Not an install script: the test runner is no input of the setup.
    expect(isInput('test/run.mjs')).toBe(false);
  });
});
