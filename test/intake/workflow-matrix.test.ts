/**
 * Issue 57 item 2: a job's matrix expanded as GitHub documents it ("Using a matrix for your jobs":
 * the order jobs are made in, excluding, expanding and adding configurations), and the entry a
 * replay runs named (the failing run's, else the first Linux one whose toolchains are here).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expandMatrix, matrixLookup } from '../../src/intake/workflow-matrix.ts';
import { findJob, fitsTemplate } from '../../src/intake/workflow-find.ts';
import { replayJob } from '../../src/intake/workflow-replay.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-matrix-');
afterAll(temp.cleanup);

const matrix = (yaml: string): unknown => parse(yaml) as unknown;

describe("GitHub's documented matrix examples", () => {
  it('the product in key order: the first key varies slowest', () => {
    expect(
      expandMatrix(matrix('version: [10, 12, 14]\nos: [ubuntu-latest, windows-latest]')),
    ).toEqual([
      { version: 10, os: 'ubuntu-latest' },
      { version: 10, os: 'windows-latest' },
      { version: 12, os: 'ubuntu-latest' },
      { version: 12, os: 'windows-latest' },
      { version: 14, os: 'ubuntu-latest' },
      { version: 14, os: 'windows-latest' },
    ]);
  });

  it('exclude removes every combination a partial entry matches', () => {
    const expanded = expandMatrix(
      matrix(
        [
          'os: [macos-latest, windows-latest]',
          'version: [12, 14, 16]',
          'environment: [staging, production]',
          'exclude:',
          '  - os: macos-latest',
          '    version: 12',
          '    environment: production',
          '  - os: windows-latest',
          '    version: 16',
        ].join('\n'),
      ),
    );
    expect(expanded).toHaveLength(9);
    expect(expanded).not.toContainEqual({
      os: 'macos-latest',
      version: 12,
      environment: 'production',
    });
    expect(expanded?.filter((c) => c.os === 'windows-latest' && c.version === 16)).toEqual([]);
  });

  it('include extends matching combinations without overwriting original values, or adds its own', () => {
    // The docs' "Example: Expanding configurations" (fruit and animal).
    const expanded = expandMatrix(
      matrix(
        [
          'fruit: [apple, pear]',
          'animal: [cat, dog]',
          'include:',
          '  - color: green',
          '  - color: pink',
          '    animal: cat',
          '  - fruit: apple',
          '    shape: circle',
          '  - fruit: banana',
          '  - fruit: banana',
          '    animal: cat',
        ].join('\n'),
      ),
    );
    expect(expanded).toEqual([
      { fruit: 'apple', animal: 'cat', color: 'pink', shape: 'circle' },
      { fruit: 'apple', animal: 'dog', color: 'green', shape: 'circle' },
      { fruit: 'pear', animal: 'cat', color: 'pink' },
      { fruit: 'pear', animal: 'dog', color: 'green' },
      { fruit: 'banana' },
      { fruit: 'banana', animal: 'cat' },
    ]);
  });

  it('an include entry that contradicts an original value is a combination of its own', () => {
    const expanded = expandMatrix(
      matrix(
        [
          'os: [windows-latest, ubuntu-latest]',
          'node: [14, 16]',
          'include:',
          '  - os: windows-latest',
          '    node: 16',
          '    npm: 6',
          '  - os: windows-latest',
          '    node: 17',
        ].join('\n'),
      ),
    );
    expect(expanded).toEqual([
      { os: 'windows-latest', node: 14 },
      { os: 'windows-latest', node: 16, npm: 6 },
      { os: 'ubuntu-latest', node: 14 },
      { os: 'ubuntu-latest', node: 16 },
      { os: 'windows-latest', node: 17 },
    ]);
  });

  it('a matrix of include alone is its entries; an expression or a huge product is not expanded', () => {
    expect(expandMatrix(matrix('include:\n  - a: 42\n  - a: foo'))).toEqual([
      { a: 42 },
      { a: 'foo' },
    ]);
    expect(expandMatrix('${{ fromJSON(needs.plan.outputs.matrix) }}')).toBeUndefined();
    expect(expandMatrix({ os: '${{ fromJSON(x) }}' })).toBeUndefined();
    const huge = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, [1, 2, 3, 4]]));
    expect(expandMatrix(huge)).toBeUndefined();
    expect(expandMatrix({ n: Array.from({ length: 100_000 }, (_, i) => i) })).toBeUndefined();
  });

  it('an object value is read by its dotted name', () => {
    const [first] = expandMatrix(matrix('py: [{version: "3.12", tox: py312}]')) ?? [];
    expect(matrixLookup(first ?? {}, 'py.tox')).toBe('py312');
  });
});

const workspace = (workflow: string): string => {
  const ws = path.join(temp.dir, `ws${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(path.join(ws, '.github', 'workflows'), { recursive: true });
  writeFileSync(path.join(ws, '.github', 'workflows', 'ci.yml'), workflow);
  return ws;
};

const BUILD = [
  'on: [push, pull_request]',
  'jobs:',
  '  build:',
  '    runs-on: ${{ matrix.os }}',
  '    strategy:',
  '      matrix:',
  '        os: [windows-latest, macos-latest, ubuntu-latest]',
  "        python-version: ['3.9', '3.12', '3.13']",
  '        exclude:',
  '          - os: macos-latest',
  "            python-version: '3.9'",
  '    steps:',
  '      - uses: actions/checkout@v4',
  '      - uses: actions/setup-python@v5',
  '        with:',
  '          python-version: ${{ matrix.python-version }}',
  '      - run: python -m pip install pytest',
  '      - name: Test',
  '        run: python -m pytest',
].join('\n');

describe('the entry a replay runs', () => {
  it('is the one the failing run names', () => {
    const found = findJob(workspace(BUILD), 'build (ubuntu-latest, 3.12)', 'test');
    expect(found.matrix).toEqual({ os: 'ubuntu-latest', 'python-version': '3.12' });
    expect(found.matrixEntry).toBe(
      'matrix entry os=ubuntu-latest, python-version=3.12 (the one the failing run names; 8 in all)',
    );
  });

  it('else the first Linux entry whose toolchain this machine has, its version in the setup step', () => {
    const ws = workspace(BUILD);
    const replay = replayJob(
      ws,
      'build',
      'Test',
      (kind, version) => kind === 'python' && version === '3.13',
    );
    expect(replay.matrixEntry).toMatch(
      /^matrix entry os=ubuntu-latest, python-version=3\.13 \(the first Linux entry whose toolchains this machine has; 8 in all\)$/,
    );
    expect(replay.toolchains).toEqual([
      { kind: 'python', version: '3.13', step: 'actions/setup-python@v5' },
    ]);
    expect(replay.unresolved).toEqual([]);
    // The private environment is made from python3.13 first, when the machine has it by that name.
    expect(replay.steps[0]?.command).toContain('for regreen_try in python3.13 python3 python');
    // None here: the first Linux entry, said so.
    expect(replayJob(ws, 'build', 'Test', () => false).matrixEntry).toMatch(
      /python-version=3\.9 \(the first Linux entry; its toolchains are not here/,
    );
  });

  it('a matrix built by an expression: the job by its name with the values GitHub appends, said unknown', () => {
    const ws = workspace(
      BUILD.replace(
        /matrix:\n[\s\S]*?\n {4}steps:/,
        'matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}\n    steps:',
      ),
    );
    const found = findJob(ws, 'build (ubuntu-latest, 3.12)', 'test');
    expect(found.id).toBe('build');
    expect(found.matrixEntry).toBe(
      'the matrix is built by an expression: its values are not known here',
    );
  });

  it('a name built from matrix values names its entry', () => {
    const ws = workspace(
      BUILD.replace(
        '  build:\n',
        "  build:\n    name: 'py${{ matrix.python-version }} on ${{ matrix.os }}'\n",
      ),
    );
    expect(findJob(ws, 'py3.13 on ubuntu-latest', 'test').matrix).toEqual({
      os: 'ubuntu-latest',
      'python-version': '3.13',
    });
    expect(() => findJob(ws, 'py3.14 on ubuntu-latest', 'test')).toThrow(/no workflow job named/);
  });
});

describe('a name built from other contexts', () => {
  it.each([
    ['deploy ${{ github.ref_name }}', 'deploy main', true],
    ['deploy ${{ github.ref_name }}', 'deploy ', false],
    ['${{ github.workflow }} / ${{ inputs.target }}', 'CI / linux', true],
    ['${{ github.workflow }} / ${{ inputs.target }}', 'CI / ', false],
    ['a${{ x }}b${{ y }}c', 'a1b2c', true],
    ['a${{ x }}b${{ y }}c', 'abc', false],
    ['plain', 'plain', true],
    ['a.*b ${{ x }}', 'aXXb 1', false],
  ])('%s fits %s: %s', (template, shown, expected) => {
    expect(fitsTemplate(template, shown)).toBe(expected);
  });

  it('is matched by its pieces, never compiled: a hostile name costs one pass', () => {
    const template = `${'(a+)+'.repeat(2000)}\${{ x }}`;
    expect(fitsTemplate(template, `${'a'.repeat(20_000)}!`)).toBe(false);
  });
});
