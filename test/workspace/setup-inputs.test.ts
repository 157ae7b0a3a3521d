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

  it('follows what the named scripts and setup.py reach: imports, requires, paths, Python modules', () => {
    const root = path.join(temp.dir, 'followed');
    const known = tree(root, {
      'install.mjs': "import { write } from './lib/write.mjs';\nwrite();\n",
      'lib/write.mjs': "const gen = require('../tools/gen');\nexport const write = () => gen;\n",
      'tools/gen.js': "spawnSync('bash', ['scripts/fetch.sh']);\n",
      'scripts/fetch.sh': 'source ./scripts/env.sh\n',
      'scripts/env.sh': 'export A=1\n',
      'setup.py': 'from build_helpers.native import compile_all\nfrom . import version\n',
      'build_helpers/__init__.py': '',
      'build_helpers/native.py': 'from .flags import FLAGS\n',
      'build_helpers/flags.py': 'FLAGS = []\n',
      'src/range.js':
        "export const range = 'lib/write.mjs is mentioned here, but nothing runs me';\n",
      'test/range.test.js': "import { range } from '../src/range.js';\n",
    });
    const isInput = setupInputs(root, 'node install.mjs && pip install -e .', known);
    for (const file of [
      'install.mjs',
      'lib/write.mjs',
      'tools/gen.js',
      'scripts/fetch.sh',
      'scripts/env.sh',
      'build_helpers/native.py',
      'build_helpers/flags.py',
    ])
      expect(isInput(file), file).toBe(true);
    // Only what the setup's own files reach: a source or test file that names a script is not read.
    for (const file of ['src/range.js', 'test/range.test.js'])
      expect(isInput(file), file).toBe(false);
  });
});
