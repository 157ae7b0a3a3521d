/**
 * "The first ten minutes: triage reads like a person would want." On real
 * logs: a Go log's excerpt is its failing part, not the packages and tests
 * that passed; against the last green run the lines new in the failing log
 * are marked; a green log says "no failure found" and shows no excerpt.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { triageLog } from '../../src/intake/actions-log.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const gunzip = (file: string): string => gunzipSync(readFileSync(file)).toString('utf8');
const log = (name: string): string => gunzip(path.join(ROOT, 'fixtures', 'ci-logs', `${name}.gz`));
const local = (name: string): string =>
  gunzip(path.join(import.meta.dirname, 'fixtures', `${name}.gz`));
const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** Go's lines for work that passed: a package's `ok` or `?`, a passing or skipped test's markers. */
const PASSED = /^(?:ok\s+\S+\s+[\d(]|\?\s+\S+\s+\[no test files\]|\s*--- (?:PASS|SKIP):)/;

const temp = makeTempDir('regreen-triage-readable-');
afterAll(() => temp.cleanup());
const file = (name: string, text: string): string => {
  const at = path.join(temp.dir, name);
  writeFileSync(at, text);
  return at;
};

describe('a Go log: the excerpt is the failing part', () => {
  it.each([
    // Travis, `go test` without -v: ~110 `ok`/`?` lines before the failing package.
    { name: 'go-ethereum-travis-566644156.log', failing: range(584, 589) },
    // GitHub Actions, `go test ./...`: ~120 `ok`/`?` lines around the failing package.
    { name: 'terraform-quick-checks-run104.fail.log', failing: range(639, 661) },
  ])(
    '$name: no line of a package that passed, every line of the failing one',
    ({ name, failing }) => {
      const triage = triageLog(log(name));
      expect(triage.excerpt.filter((l) => PASSED.test(l.text)).map((l) => l.text)).toEqual([]);
      const shown = new Set(triage.excerpt.map((l) => l.line));
      expect(failing.filter((n) => !shown.has(n))).toEqual([]);
      expect(triage.excerpt.length).toBeLessThan(60);
    },
  );

  it('go test -v: the failing test its output, not the output of tests that passed or were skipped', () => {
    const raw = local('terraform-build-packages-run380.fail.log');
    const triage = triageLog(raw);
    const shown = new Set(triage.excerpt.map((l) => l.line));
    // The failing subtest's output precedes its `--- FAIL` line (the dataset's label, 187–196; 197 is blank).
    expect(range(187, 196).filter((n) => !shown.has(n))).toEqual([]);
    expect(shown.has(206) && shown.has(207)).toBe(true);
    const text = triage.excerpt.map((l) => l.text);
    expect(text.filter((t) => PASSED.test(t))).toEqual([]);
    // What skipped and passing tests printed (`x_test.go:26: …`) is not why the job failed.
    for (const quiet of [111, 114, 117, 122]) expect(shown.has(quiet)).toBe(false);
    expect(text.filter((t) => /^=== (?:RUN|CONT|PAUSE)\s+TestPrimary/.test(t))).toEqual([]);
  });

  it('regreen triage prints the failing part of a Go log', async () => {
    const out = await runCli([
      'triage',
      '--log',
      file('geth.log', log('go-ethereum-travis-566644156.log')),
    ]);
    expect(out.code).toBe(0);
    const excerpt = out.stdout.slice(out.stdout.indexOf('excerpt:'));
    expect(excerpt).toContain('584: --- FAIL: TestSimulation (10.07s)');
    expect(excerpt).toContain('FAIL\tgithub.com/ethereum/go-ethereum/whisper/whisperv6');
    expect(excerpt).not.toMatch(/^\s*\d+: (?:ok|\?) {2,}/m);
  });
});

describe('--baseline: the lines new against the last green run are marked', () => {
  const failed = log('terraform-quick-checks-run104.fail.log');
  const passed = log('terraform-quick-checks-run104.pass.log');

  it('marks every excerpt line new or not; the failing tests are new, the step header is not', () => {
    const triage = triageLog(failed, { baseline: passed });
    const byLine = new Map(triage.excerpt.map((l) => [l.line, l]));
    for (const n of range(639, 661)) expect(byLine.get(n)?.new, `line ${n}`).toBe(true);
    // `##[group]Run go test ./...` and its script: the green run ran the same step.
    expect(byLine.get(598)?.new).toBe(false);
    expect(byLine.get(599)?.new).toBe(false);
    expect(triage.newLines).toBe(triage.excerpt.filter((l) => l.new === true).length);
    // Without a baseline nothing is marked either way.
    expect(triageLog(failed).excerpt.some((l) => 'new' in l)).toBe(false);
  });

  it('regreen triage marks new lines with + as text and new: true in --json', async () => {
    const args = [
      'triage',
      '--log',
      file('fail.log', failed),
      '--baseline',
      file('pass.log', passed),
    ];
    const text = await runCli(args);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^\+ 639: --- FAIL: TestCloud_configWithEnvVars \(0\.00s\)$/m);
    expect(text.stdout).toMatch(/^ {2}598: ##\[group\]Run go test \.\/\.\.\.$/m);
    expect(text.stdout).toMatch(/excerpt lines are new in this log \(marked \+\)/);
    const json = JSON.parse((await runCli([...args, '--json'])).stdout) as {
      newLines: number;
      excerpt: { line: number; new?: boolean }[];
    };
    expect(json.excerpt.find((l) => l.line === 661)?.new).toBe(true);
    expect(json.excerpt.find((l) => l.line === 598)?.new).toBe(false);
    expect(json.excerpt.every((l) => typeof l.new === 'boolean')).toBe(true);
    expect(json.newLines).toBe(json.excerpt.filter((l) => l.new).length);
  });
});

describe('a green log: no failure found', () => {
  const green = log('terraform-quick-checks-run104.pass.log');

  it('says so, shows no excerpt, and exits 3 (as fix does when the command passes)', async () => {
    const out = await runCli(['triage', '--log', file('green.log', green)]);
    expect(out.code).toBe(3);
    expect(out.stdout).toMatch(/^verdict: no failure found: the log shows a successful run$/m);
    expect(out.stdout).toMatch(/^excerpt: none$/m);
    expect(out.stdout).not.toMatch(/^\s*\d+: /m);
  });

  it('--json says failureFound: false with an empty excerpt', async () => {
    const out = await runCli(['triage', '--log', file('green.log', green), '--json']);
    expect(out.code).toBe(3);
    const json = JSON.parse(out.stdout) as { verdict: string; failureFound: boolean; excerpt: [] };
    expect(json).toMatchObject({ verdict: 'success', failureFound: false, excerpt: [] });
  });

  it('a log that marks no failure but shows no success either still shows its best guesses (exit 1)', async () => {
    const out = await runCli([
      'triage',
      '--log',
      file('plain.log', 'compiling…\nlinking…\n'),
      '--json',
    ]);
    expect(out.code).toBe(1);
    const json = JSON.parse(out.stdout) as { failureFound: boolean; excerpt: unknown[] };
    expect(json.failureFound).toBe(false);
    expect(json.excerpt.length).toBeGreaterThan(0);
  });
});
