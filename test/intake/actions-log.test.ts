import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionsLog } from '../../fixtures/logs/actions-log.ts';
import { SAMPLES, type SampleFormat } from '../../fixtures/logs/samples.ts';
import { formatExcerpt, triageLog } from '../../src/intake/actions-log.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const failingLog = (format: SampleFormat, start?: number): string => {
  const sample = SAMPLES[format];
  return actionsLog(
    [
      { uses: 'actions/checkout@v4', output: 'Syncing repository: acme/app' },
      { run: 'npm ci', output: 'added 120 packages in 3s', exitCode: 0 },
      { run: sample.run, env: { CI: 'true' }, output: sample.output, exitCode: 1 },
    ],
    start,
  );
};

describe('triageLog', () => {
  for (const format of Object.keys(SAMPLES) as SampleFormat[]) {
    it(`recognises ${format} failures with file, line and test`, () => {
      const raw = failingLog(format);
      const triage = triageLog(raw);
      expect(triage.failingStep?.title).toBe(SAMPLES[format].run);
      expect(triage.failingStep?.exitCode).toBe(1);
      const ours = triage.failures.filter((f) => f.format === format);
      expect(ours.length, JSON.stringify(triage.failures)).toBeGreaterThan(0);
      expect(ours[0]).toMatchObject(SAMPLES[format].expect);
      // Excerpt lines are numbered as in the raw log, cleaned of timestamps and colours.
      const rawLines = raw.split('\n');
      for (const entry of triage.excerpt) {
        const rawLine = rawLines[entry.line - 1] ?? '';
        expect(rawLine).toMatch(/^\uFEFF?\d{4}-\d{2}-\d{2}T/);
        // eslint-disable-next-line no-control-regex
        expect(entry.text).not.toMatch(/^\d{4}-\d{2}-\d{2}T|\u001b\[/);
      }
      const recognisedLine = ours[0]?.logLine ?? 0;
      expect(triage.excerpt.some((e) => e.line === recognisedLine)).toBe(true);
    });
  }

  it('keeps the excerpt to the failing step', () => {
    const triage = triageLog(failingLog('pytest'));
    const step = triage.failingStep;
    expect(step).toBeDefined();
    for (const entry of triage.excerpt) {
      expect(entry.line).toBeGreaterThanOrEqual(step?.startLine ?? 0);
      expect(entry.line).toBeLessThanOrEqual(step?.endLine ?? 0);
    }
    expect(triage.steps.map((s) => [s.title, s.failed])).toEqual([
      ['actions/checkout@v4', false],
      ['npm ci', false],
      ['python -m pytest', true],
    ]);
  });

  it('gives the same fingerprint to the same failure on another day', () => {
    const a = triageLog(failingLog('vitest', Date.UTC(2026, 0, 1)));
    const b = triageLog(
      failingLog('vitest', Date.UTC(2026, 5, 9))
        .replace('312ms', '977ms')
        .replace('6ms', '9ms'),
    );
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(triageLog(failingLog('jest')).fingerprint).not.toBe(a.fingerprint);
  });

  it('bounds the excerpt of a 10 MB log with 50,000-character lines', () => {
    const long = 'x'.repeat(50_000);
    const noise = Array.from({ length: 200 }, (_, i) => `error: ${i} ${long}`).join('\n');
    const raw = actionsLog([
      { run: 'make', output: `${noise}\n${SAMPLES.tsc.output}`, exitCode: 2 },
    ]);
    expect(raw.length).toBeGreaterThan(10_000_000);
    const triage = triageLog(raw);
    expect(triage.excerpt.length).toBeLessThanOrEqual(120);
    const text = formatExcerpt(triage.excerpt);
    expect(text.length).toBeLessThan(120 * 600);
    expect(triage.failingStep?.exitCode).toBe(2);
  });

  it('reads a log without step markers (a plain output file)', () => {
    const triage = triageLog(SAMPLES['go-test'].output);
    expect(triage.failingStep).toBeUndefined();
    expect(triage.failures[0]).toMatchObject({ format: 'go-test', test: 'TestReverse' });
  });

  it('names a pytest failure once, though pytest prints it in its failures section and its summary', () => {
    const log = [
      '=================================== FAILURES ===================================',
      '_______________________________ TestCalc.test_adds _______________________________',
      '',
      '    def test_adds(self):',
      '>       assert add(2, 2) == 4',
      'E       assert 0 == 4',
      '',
      'tests/test_calc.py:7: AssertionError',
      '_________________________________ test_mean __________________________________',
      '',
      'tests/test_stats.py:3: ZeroDivisionError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_calc.py::TestCalc::test_adds - assert 0 == 4',
      '========================= 2 failed, 2 passed in 0.03s ==========================',
    ].join('\n');
    const { failures } = triageLog(log);
    // The summary names test_adds (with its message and the section's line); test_mean only its banner.
    expect(failures.map((f) => [f.test, f.line, f.message])).toEqual([
      ['test_mean', 3, 'ZeroDivisionError'],
      ['TestCalc::test_adds', 7, 'assert 0 == 4'],
    ]);
  });

  it('formats the excerpt with raw-log numbers and gaps', () => {
    expect(
      formatExcerpt([
        { line: 9, text: 'a' },
        { line: 10, text: 'b' },
        { line: 40, text: 'c' },
      ]),
    ).toBe(' 9: a\n10: b\n…\n40: c');
  });
});

describe('regreen triage', () => {
  it('explains a log file, as text and as JSON', async () => {
    const temp = makeTempDir();
    try {
      const file = path.join(temp.dir, 'job.log');
      writeFileSync(file, failingLog('pytest'));
      const text = await runCli(['triage', '--log', file]);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/failing step: python -m pytest/);
      expect(text.stdout).toMatch(
        /\[pytest\] tests\/test_stats.py:9 tests\/test_stats.py::test_mean|\[pytest\] tests\/test_stats.py:9 test_mean/,
      );
      const json = await runCli(['triage', '--log', file, '--json']);
      const parsed = JSON.parse(json.stdout) as {
        fingerprint: string;
        excerpt: { line: number }[];
      };
      expect(parsed.fingerprint).toMatch(/^[0-9a-f]{12}$/);
      expect(parsed.excerpt.length).toBeGreaterThan(0);
      const missing = await runCli(['triage', '--log', path.join(temp.dir, 'nope.log')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/no such file/);
    } finally {
      temp.cleanup();
    }
  });
});
