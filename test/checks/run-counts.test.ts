import { describe, expect, it } from 'vitest';
import { closingMissing, readRun } from '../../checks/run-counts.ts';

const run = (output: string) => ({
  exitCode: 0,
  output,
  timedOut: false,
  durationMs: 1,
  droppedBytes: 0,
  proof: { junit: undefined, goVerbose: true },
});

describe('which runner a count was read from', () => {
  it("node:test's TAP lines are not go test's package lines (a new user saw `go test` named for node --test)", () => {
    const tap = readRun(
      run(
        'TAP version 13\n# Subtest: adds\nok 1 - adds\n  ---\n  duration_ms: 1\n  ...\n1..1\n# tests 1\n# pass 1\n# fail 0\n',
      ),
    );
    expect(tap.counts).toMatchObject({ passed: 1, failed: 0 });
    expect(tap.proof).not.toMatch(/go test/);
    const go = readRun(
      run('=== RUN   TestAdd\n--- PASS: TestAdd (0.00s)\nPASS\nok  \texample.com/calc\t0.002s\n'),
    );
    expect(go.proof).toBe("go test's line per test (-v)");
  });
});

describe("pytest's report and its closing line (attack5)", () => {
  const REPORT =
    '<testsuites><testsuite name="pytest" tests="2"><testcase classname="test_calc" name="test_add"/><testcase classname="test_calc" name="test_zero"/></testsuite></testsuites>';
  const reported = (output: string) => ({
    ...run(output),
    proof: { junit: REPORT, goVerbose: false },
  });

  it('a run that ended before pytest printed its closing line, where the base printed one, proves nothing', () => {
    const base = readRun(reported('..F\n1 failed, 1 passed in 0.03s\n'));
    const cut = readRun(reported('.'));
    expect(base.closed).toBe(true);
    expect(cut.closed).toBe(false);
    expect(closingMissing(base, cut)).toBe(true);
    expect(closingMissing(base, readRun(reported('..\n2 passed in 0.02s\n')))).toBe(false);
    // A base that printed none (pytest told to be silent) asks for none.
    expect(closingMissing(readRun(reported('')), cut)).toBe(false);
  });
});
