import { describe, expect, it } from 'vitest';
import { readRun } from '../../checks/run-counts.ts';

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
