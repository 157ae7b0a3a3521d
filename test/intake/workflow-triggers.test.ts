import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ciJobs } from '../../src/intake/workflow-triggers.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir();
afterAll(temp.cleanup);

const repoWith = (name: string, workflows: Record<string, string>): string => {
  const dir = path.join(temp.dir, name, '.github', 'workflows');
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(workflows)) writeFileSync(path.join(dir, file), text);
  return path.join(temp.dir, name);
};

describe('the jobs a push or pull request runs on Linux (issue 57, item 7)', () => {
  it('keeps push and pull-request jobs on Linux with run: steps, in order', () => {
    const repo = repoWith('mixed', {
      'a.yml':
        'on: [push, pull_request]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm run lint\n  mac:\n    runs-on: macos-14\n    steps:\n      - run: x\n  matrix:\n    runs-on: ${{ matrix.os }}\n    steps:\n      - run: npm test\n  uses-only:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n  labels:\n    runs-on: [self-hosted, linux, x64]\n    steps:\n      - run: make\n',
      'b.yml':
        'on:\n  pull_request:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-22.04\n    steps:\n      - run: pytest\n',
      'c.yml':
        'on:\n  release:\n    types: [published]\njobs:\n  publish:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm publish\n',
      'd.yml':
        'on: schedule\njobs:\n  nightly:\n    runs-on: ubuntu-latest\n    steps:\n      - run: x\n',
    });
    expect(ciJobs(repo).map((job) => job.name)).toEqual([
      'a.yml:lint',
      'a.yml:matrix',
      'a.yml:labels',
      'b.yml:test',
    ]);
  });

  it('no workflow folder: no jobs', () => {
    expect(ciJobs(path.join(temp.dir, 'nothing-here'))).toEqual([]);
  });
});
