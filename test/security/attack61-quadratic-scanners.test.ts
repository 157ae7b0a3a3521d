/**
 * issue 61, class 1, second round: texts inside every bound whose reading was quadratic in
 * their lines or keys (each held the host for a minute or more): a recogniser that searched the
 * whole log again for each failing line (mocha's titles, cargo's panics, Surefire's summary, the
 * pytest summary's three searches), the `yaml` library's duplicate-key check on a map of many
 * keys (a workflow, `.github/regreen.yml`), and a JUnit report of unclosed `<testcase` tags.
 * Each is called in a child killed past a deadline (test/support/deadline.ts); each ends in well
 * under a second once linear, and was killed before the fix.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { callWithin } from '../support/deadline.ts';

const DEADLINE = 20_000;
const ends = async (file: string, name: string, args: unknown[]): Promise<unknown> => {
  const ended = await callWithin(file, name, args, DEADLINE);
  expect(ended.signal, ended.stderr).toBeNull();
  expect(ended.value, ended.stderr).toBeDefined();
  return ended.value;
};
const lines = (n: number, line: (i: number) => string): string =>
  Array.from({ length: n }, (_, i) => line(i)).join('\n');

describe('attack61: a log of many failing lines is read once', () => {
  it('mocha: `1 failing` and 30,000 numbered titles (the regreen triage path)', async () => {
    const log = `1 failing\n${'  1) a\n'.repeat(30_000)}`;
    await ends('src/intake/actions-log.ts', 'triageLog', [log]);
  }, 60_000);

  it('mocha: the same as a failing command’s output (failureLocations)', async () => {
    await ends('src/job/toolbox.ts', 'failureLocations', [
      `1 failing\n${'  1) a\n'.repeat(30_000)}`,
    ]);
  }, 60_000);

  it('cargo: 40,000 `test tN ... FAILED` lines and no panic', async () => {
    await ends('src/intake/actions-log.ts', 'triageLog', [
      lines(40_000, (i) => `test t${i} ... FAILED`),
    ]);
  }, 60_000);

  it('surefire: 30,000 `<<< FAILURE!` lines, and a summary naming each', async () => {
    const log = [
      lines(30_000, (i) => `[ERROR] a.B.t${i} -- Time elapsed: 0 s <<< FAILURE!`),
      '[ERROR] Failures: ',
      lines(30_000, (i) => `[ERROR]   C.u${i}:1 x`),
    ].join('\n');
    await ends('src/intake/actions-log.ts', 'triageLog', [log]);
  }, 60_000);

  it('pytest: 200 summary lines over 400,000 location lines (the recognisers alone)', async () => {
    const log = [
      ...Array.from({ length: 400_000 }, (_, i) => `t${i}.py:1: x`),
      ...Array.from({ length: 200 }, (_, i) => `FAILED u${i}.py::test_x`),
    ].map((text, i) => ({ line: i + 1, text }));
    await ends('src/intake/formats/index.ts', 'recogniseFailures', [log]);
  }, 60_000);
});

describe('attack61: repository YAML of many keys is read in time', () => {
  const manyKeys = (head: string): string => {
    let text = head;
    for (let i = 0; i < 20_000; i += 1) text += `  k${i}: 1\n`;
    return text;
  };

  it('a 225 KB workflow of 25,000 keys in one map (regreen fix --job)', async () => {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'attack61-yaml-'));
    mkdirSync(path.join(ws, '.github', 'workflows'), { recursive: true });
    // Keys no YAML reading takes for a number (`1e2` and `100` are one key to YAML).
    const keys = Array.from({ length: 25_000 }, (_, i) => `k${i.toString(36)}: 0`).join(', ');
    const text = `on: push\njobs:\n  test:\n    runs-on: x\n    steps: [{run: "true"}]\nenv: {${keys}}\n`;
    expect(text.length).toBeLessThan(256 * 1024);
    writeFileSync(path.join(ws, '.github', 'workflows', 'ci.yml'), text);
    expect(
      await ends('src/intake/workflow-find.ts', 'findJob', [ws, 'test', '--job']),
    ).toMatchObject({ id: 'test' });
  }, 60_000);

  it('a workflow repeating a key is still refused (the check the library no longer makes)', async () => {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'attack61-yaml-'));
    mkdirSync(path.join(ws, '.github', 'workflows'), { recursive: true });
    const text = `on: push\njobs:\n  test:\n    runs-on: x\n    steps: [{run: "true"}]\n  test:\n    runs-on: y\n    steps: []\n`;
    writeFileSync(path.join(ws, '.github', 'workflows', 'ci.yml'), text);
    const ended = await callWithin('src/intake/workflow.ts', 'readWorkflows', [ws, 'x'], DEADLINE);
    expect(ended.value).toEqual([]);
  }, 60_000);

  it('a workflow over 256 KiB is refused with its size', async () => {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'attack61-yaml-'));
    mkdirSync(path.join(ws, '.github', 'workflows'), { recursive: true });
    writeFileSync(path.join(ws, '.github', 'workflows', 'ci.yml'), `# ${'x'.repeat(300_000)}\n`);
    const ended = await callWithin('src/intake/workflow.ts', 'readWorkflows', [ws, 'x'], DEADLINE);
    expect(ended.stderr).toMatch(
      /ci\.yml is 293 KiB, over the 256 KiB a workflow read by regreen may be/,
    );
  }, 60_000);

  it('a .github/regreen.yml of 20,000 keys is refused, without parsing it', async () => {
    const ended = await callWithin(
      'src/config/repo-config.ts',
      'parseRepoConfig',
      [manyKeys('x:\n')],
      DEADLINE,
    );
    expect(ended.signal).toBeNull();
    expect(ended.stderr).toMatch(/regreen\.yml: \d+ KiB, over the 64 KiB a config may be/);
  }, 60_000);

  it('a .github/regreen.yml repeating a key is still refused, naming its line', async () => {
    const ended = await callWithin(
      'src/config/repo-config.ts',
      'parseRepoConfig',
      ['fix:\n  max_attempts: 1\n  max_attempts: 2\n'],
      DEADLINE,
    );
    expect(ended.stderr).toMatch(/regreen\.yml:3: invalid YAML: Map keys must be unique/);
  }, 60_000);
});

describe('attack61: a JUnit report of unclosed <testcase tags', () => {
  it('400,000 `<testcase ` openings and one `>` are read once', async () => {
    const xml = `<testsuite><testcase name="a"/>${'<testcase '.repeat(400_000)}>`;
    await ends('checks/test-reports.ts', 'parseJunit', [xml]);
  }, 60_000);
});
