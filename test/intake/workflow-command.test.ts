/**
 * Issue 57 item 9: a command that several workflow jobs run is not refused; the job is chosen as
 * a person would (a push or pull request's over a release, publish, manual or scheduled one; the
 * one that runs on the checked-out branch over a legacy workflow's), said, with the others listed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { globMatches, jobRunning } from '../../src/intake/workflow-command.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-command-');
afterAll(temp.cleanup);

const workspace = (workflows: Record<string, string>): string => {
  const ws = path.join(temp.dir, `ws${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(path.join(ws, '.github', 'workflows'), { recursive: true });
  for (const [file, text] of Object.entries(workflows))
    writeFileSync(path.join(ws, '.github', 'workflows', file), text);
  return ws;
};

const TEST_YML = [
  'name: test',
  'on: [push, pull_request]',
  'jobs:',
  '  test:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - uses: actions/checkout@v4',
  '      - uses: actions/setup-node@v4',
  '        with:',
  '          node-version: 20',
  '          cache: yarn',
  '      - run: yarn install --frozen-lockfile',
  '      - run: yarn test',
].join('\n');

// A publish workflow as projects write it: on a release, with the registry and a build.
const PUBLISH_YML = [
  'name: publish',
  'on:',
  '  release:',
  '    types: [published]',
  'jobs:',
  '  publish:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - uses: actions/checkout@v4',
  '      - uses: actions/setup-node@v4',
  '        with:',
  '          node-version: 20',
  '          registry-url: https://registry.example',
  '      - run: yarn install --frozen-lockfile',
  '      - run: yarn build',
  '      - run: yarn test',
  '      - run: npm publish',
  '        env:',
  '          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}',
].join('\n');

describe('the job a command is replayed from', () => {
  it('a publish job beside the test job: the test job, the other listed', () => {
    const ws = workspace({ 'publish.yml': PUBLISH_YML, 'test.yml': TEST_YML });
    const found = jobRunning(ws, 'yarn test');
    expect(found?.job).toBe('test.yml:test');
    expect(found?.note).toBe(
      '`yarn test` is run by several workflow jobs: test.yml: test (push/pull_request) is replayed; the others: publish.yml: publish (release) (name one with --job to replay it)',
    );
  });

  it('a scheduled or manual workflow, a tag push: the push and pull request one', () => {
    const nightly = TEST_YML.replace(
      'on: [push, pull_request]',
      "on:\n  schedule:\n    - cron: '0 3 * * *'\n  workflow_dispatch:",
    ).replace('node-version: 20', 'node-version: 22');
    const tags = TEST_YML.replace(
      'on: [push, pull_request]',
      "on:\n  push:\n    tags: ['v*']",
    ).replace('cache: yarn', 'cache: npm');
    const ws = workspace({ 'a-nightly.yml': nightly, 'b-tags.yml': tags, 'ci.yml': TEST_YML });
    expect(jobRunning(ws, 'yarn test')?.job).toBe('ci.yml:test');
  });

  it('a legacy workflow for an old branch beside the current one: the one on the checked-out branch', () => {
    const legacy = [
      'on:',
      '  push:',
      '    branches: [master]',
      '  pull_request:',
      '    branches: [master]',
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v2',
      '      - uses: actions/setup-node@v1',
      '        with:',
      '          node-version: 12.x',
      '      - run: yarn',
      '      - run: yarn test',
    ].join('\n');
    const current = TEST_YML.replace(
      'on: [push, pull_request]',
      "on:\n  push:\n    branches: [main, 'release/**']\n  pull_request:\n    branches: [main]",
    );
    const ws = workspace({ 'ci.yml': current, 'main.yml': legacy });
    expect(jobRunning(ws, 'yarn test', 'main')?.job).toBe('ci.yml:test');
    expect(jobRunning(ws, 'yarn test', 'release/2.x')?.job).toBe('ci.yml:test');
    expect(jobRunning(ws, 'yarn test', 'master')?.job).toBe('main.yml:build');
    // Without the branch nothing tells them apart, and their set-ups differ: name one.
    expect(() => jobRunning(ws, 'yarn test')).toThrow(
      /`yarn test` is run by several workflow jobs that nothing tells apart and whose set-ups differ: ci\.yml: test \(push\/pull_request\), main\.yml: build \(push\/pull_request\); name one with --job/,
    );
  });

  it('jobs with the same set-up are no ambiguity', () => {
    const ws = workspace({
      'ci.yml': TEST_YML,
      'tests.yml': TEST_YML.replace('name: test', 'name: tests'),
    });
    expect(jobRunning(ws, 'yarn test')).toEqual({
      job: 'ci.yml:test',
      step: 'Run yarn test',
      note: '`yarn test` is also run by tests.yml: test, with the same set-up: ci.yml: test is replayed',
    });
  });

  it('a testing job over one named for releasing, when both run on push', () => {
    const release = PUBLISH_YML.replace('on:\n  release:\n    types: [published]', 'on: push');
    const ws = workspace({ 'publish.yml': release, 'test.yml': TEST_YML });
    expect(jobRunning(ws, 'yarn test')?.job).toBe('test.yml:test');
  });
});

describe('branch filters', () => {
  it.each([
    ['main', 'main', true],
    ['main', 'mainline', false],
    ['release/*', 'release/2.x', true],
    ['release/*', 'release/2.x/hotfix', false],
    ['release/**', 'release/2.x/hotfix', true],
    ['*', 'feature/x', false],
    ['**', 'feature/x', true],
    ['v*.*', 'v1.2', true],
  ])('%s matches %s: %s', (pattern, name, expected) => {
    expect(globMatches(pattern, name)).toBe(expected);
  });

  it('a hostile pattern is walked in bounded time', () => {
    // Every (pattern, name) position is visited once: no backtracking blow-up.
    expect(globMatches('*a'.repeat(100), `${'a'.repeat(199)}b`)).toBe(false);
  });
});
