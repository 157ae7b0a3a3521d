/**
 * Triage on real CI logs of public projects (fixtures/ci-logs, with the
 * datasets' own labels): the labelled lines are in the excerpt, the same
 * failure on two runs has one fingerprint, the last green run ranks the
 * excerpt, and the verdict says what the log shows.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { triageLog } from '../../src/intake/actions-log.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const LOGS = path.join(import.meta.dirname, '..', '..', 'fixtures', 'ci-logs');
const log = (name: string): string =>
  gunzipSync(readFileSync(path.join(LOGS, `${name}.gz`))).toString('utf8');
const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

const LABELLED: readonly { file: string; lines: readonly number[] }[] = [
  { file: 'terraform-quick-checks-run104.fail.log', lines: range(639, 659) },
  { file: 'terraform-quick-checks-run118.fail.log', lines: [...range(638, 644), 647] },
  { file: 'terraform-quick-checks-run122.fail.log', lines: range(638, 687) },
  { file: 'go-ethereum-travis-566644156.log', lines: [584, 585] },
];

describe('triage on real CI logs', () => {
  for (const { file, lines } of LABELLED) {
    it(`puts the labelled lines of ${file} in the excerpt and locates the failure`, () => {
      const triage = triageLog(log(file));
      const shown = new Set(triage.excerpt.map((l) => l.line));
      expect(lines.filter((n) => !shown.has(n))).toEqual([]);
      expect(triage.excerpt.length).toBeLessThanOrEqual(120);
      expect(triage.verdict).toBe('located');
    });
  }

  it('gives the same failure on two runs one fingerprint, and another failure another', () => {
    const fp = (file: string): string => triageLog(log(file)).fingerprint;
    // Another run: other timestamps, durations, runner and (Travis) another port in the message.
    expect(fp('terraform-quick-checks-run118.fail.log')).toBe(
      fp('terraform-quick-checks-run133.fail.log'),
    );
    expect(fp('terraform-quick-checks-run122.fail.log')).toBe(
      fp('terraform-quick-checks-run131.fail.log'),
    );
    expect(fp('go-ethereum-travis-566363943.log')).toBe(fp('go-ethereum-travis-566644156.log'));
    const all = new Set(
      [
        'terraform-quick-checks-run104.fail.log',
        'terraform-quick-checks-run118.fail.log',
        'terraform-quick-checks-run122.fail.log',
        'go-ethereum-travis-566644156.log',
      ].map(fp),
    );
    expect(all.size).toBe(4);
  });

  it('ranks the excerpt against the last green run without changing the fingerprint', () => {
    const failed = log('terraform-quick-checks-run104.fail.log');
    const passed = log('terraform-quick-checks-run104.pass.log');
    const alone = triageLog(failed);
    const paired = triageLog(failed, { baseline: passed });
    expect(paired.fingerprint).toBe(alone.fingerprint);
    const shown = new Set(paired.excerpt.map((l) => l.line));
    expect(range(639, 659).filter((n) => !shown.has(n))).toEqual([]);
    expect(paired.newLines).toBeGreaterThanOrEqual(21);
    // Without a baseline there is no such count.
    expect(alone.newLines).toBeUndefined();
    // A tighter budget keeps the new lines first: the labelled block survives at 30 lines.
    const tight = triageLog(failed, { baseline: passed, maxExcerptLines: 30 });
    const kept = new Set(tight.excerpt.map((l) => l.line));
    expect(range(639, 659).filter((n) => !kept.has(n))).toEqual([]);
  });

  it('says "no failure" only for a log that shows a success', () => {
    expect(triageLog(log('terraform-quick-checks-run104.pass.log')).verdict).toBe('success');
    expect(triageLog('compiling…\nlinking…\n').verdict).toBe('guessed');
    // A failing `uses:` step prints no exit-code marker: the error lines still locate it.
    const failed = log('terraform-quick-checks-run104.fail.log')
      .split('\n')
      .filter((line) => !line.includes('##[error]Process completed with exit code'))
      .join('\n');
    expect(triageLog(failed).verdict).toBe('located');
  });

  it('regreen triage --log FAIL --baseline PASS: exit 0 located, 3 for a green log, 2 for usage', async () => {
    const { dir, cleanup } = makeTempDir('regreen-triage-real-');
    const fail = path.join(dir, 'fail.log');
    const pass = path.join(dir, 'pass.log');
    writeFileSync(fail, log('terraform-quick-checks-run104.fail.log'));
    writeFileSync(pass, log('terraform-quick-checks-run104.pass.log'));
    const located = await runCli(['triage', '--log', fail, '--baseline', pass]);
    expect(located.code).toBe(0);
    expect(located.stdout).toMatch(/verdict: a failure, located/);
    expect(located.stdout).toMatch(/baseline: ranked against the last green run; \d+ of \d+/);
    expect(located.stdout).toContain('TestCloud_configWithEnvVars');
    const green = await runCli(['triage', '--log', pass]);
    expect(green.code).toBe(3);
    expect(green.stdout).toMatch(/no failure found: the log shows a successful run/);
    const missing = await runCli(['triage', '--log', fail, '--baseline', path.join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--baseline .*no such file/);
    cleanup();
  });
});
