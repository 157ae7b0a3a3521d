import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprint, normaliseErrorLines } from '../../src/intake/failure-report.ts';
import { failingStepCommand } from '../../src/intake/workflow-find.ts';
import { errorLines } from '../../src/job/stages/reproduce.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('fingerprint', () => {
  const run = (duration: string, tmp: string, sha: string) =>
    `\u001b[31m✖ parses dates (${duration})\u001b[0m\nError: expected 2 at ${tmp}/x.js:3\n  at commit ${sha}\n# fail 1`;

  it('is stable across timings, tmp paths, hex ids and colours', () => {
    const a = fingerprint({
      command: 'npm test',
      errorLines: errorLines(run('1.2ms', '/tmp/abc123', 'deadbeef12')),
    });
    const b = fingerprint({
      command: 'npm test',
      errorLines: errorLines(run('33.9ms', '/tmp/zzz999', 'cafebabe77')),
    });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{12}$/);
  });

  it('differs for a different failure or command', () => {
    const base = fingerprint({ command: 'npm test', errorLines: ['Error: expected 2'] });
    expect(fingerprint({ command: 'npm test', errorLines: ['Error: expected 3'] })).not.toBe(base);
    expect(fingerprint({ command: 'npm run lint', errorLines: ['Error: expected 2'] })).not.toBe(
      base,
    );
  });

  it('normalises timestamps', () => {
    expect(normaliseErrorLines('2026-11-30T01:02:03.456Z failed')).toEqual(['<time> failed']);
  });
});

describe('failingStepCommand', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);
  const ws = path.join(temp.dir, 'ws');
  mkdirSync(path.join(ws, '.github', 'workflows'), { recursive: true });
  writeFileSync(
    path.join(ws, '.github', 'workflows', 'test.yml'),
    [
      'on: [push, pull_request]',
      'env:',
      '  TZ: UTC',
      'jobs:',
      '  test:',
      '    runs-on: ${{ matrix.os }}',
      '    strategy:',
      '      matrix:',
      '        node: [18.x, 20.x]',
      '        os: [ubuntu-latest]',
      '    env:',
      '      TOKEN: ${{ secrets.NPM_TOKEN }}',
      '    defaults:',
      '      run:',
      '        working-directory: packages/core',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - run: npm ci',
      '      - name: Unit tests',
      '        run: |',
      '          echo "node ${{ matrix.node }}"',
      '          npm test -- --reporter=dot',
      '        env:',
      '          NODE_OPTIONS: --max-old-space-size=4096',
    ].join('\n'),
  );

  it('finds the step by its name in a matrix job and resolves matrix, env and directory', () => {
    const step = failingStepCommand(ws, 'test (20.x, ubuntu-latest)', 'Unit tests');
    expect(step.matrix).toEqual({ node: '20.x', os: 'ubuntu-latest' });
    expect(step.env).toEqual({ TZ: 'UTC', NODE_OPTIONS: '--max-old-space-size=4096' });
    expect(step.workingDirectory).toBe('packages/core');
    expect(step.unresolved).toContain('secrets.NPM_TOKEN');
    expect(step.command).toBe(
      [
        "export TZ='UTC'",
        "export NODE_OPTIONS='--max-old-space-size=4096'",
        "cd 'packages/core'",
        'echo "node 20.x"',
        'npm test -- --reporter=dot',
      ].join('\n'),
    );
  });

  it("finds an unnamed step by the log's Run header", () => {
    expect(failingStepCommand(ws, 'test (18.x, ubuntu-latest)', 'Run npm ci').command).toMatch(
      /cd 'packages\/core'\nnpm ci$/,
    );
    expect(() => failingStepCommand(ws, 'test', 'deploy')).toThrow(/no run: step .*Unit tests/);
  });
});
